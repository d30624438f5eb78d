"""The ledger's zero-sum check reads each entry's postings by its index, whatever its plan
(PostgreSQL).

`check_entries_balanced()` (the `journal_entries_balanced` statement trigger, migration
20261127_52) asked, of the statement's new entries, `NOT EXISTS (postings of the entry) OR
EXISTS (a currency of them not summing to zero)`. Under the OR the first test stays a
subplan, and PL/pgSQL plans the query once a connection, with the transition table's row
count at that moment: planned on a statement of many entries while `postings` was small
(a fresh database's first clearing unit writing its captures as one set), the test became
a *hashed* subplan — a sequential scan of every posting at each statement after. Measured
2026-11-28 (`bench.clearing --statements`, 20,000 records): 23 ms a call, 1.2 ms a record,
against 15 µs a record with the index.

Now each entry's postings are summed by currency in a LATERAL subquery on the entry's id,
which can only run once an entry, through `ix_postings_entry_id`: the same refusal (an
entry without postings, or a currency of it not summing to zero), one plan at any size.

Revision ID: 20261128_03
Revises: 20261128_04
Create Date: 2026-11-28
"""

from __future__ import annotations

from alembic import op

revision = "20261128_03"
down_revision = "20261128_04"
branch_labels = None
depends_on = None

REFUSAL = """
        RAISE EXCEPTION 'a journal entry does not sum to zero' USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END $$
"""
PER_ENTRY = (
    """
CREATE OR REPLACE FUNCTION check_entries_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM new_entries e
        CROSS JOIN LATERAL (
            SELECT count(*) AS currencies, count(*) FILTER (WHERE s.total <> 0) AS unbalanced
            FROM (SELECT sum(p.amount) AS total FROM postings p WHERE p.entry_id = e.id
                  GROUP BY p.currency) s
        ) c
        WHERE c.currencies = 0 OR c.unbalanced > 0
    ) THEN"""
    + REFUSAL
)
BEFORE = (
    """
CREATE OR REPLACE FUNCTION check_entries_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM new_entries e
        WHERE NOT EXISTS (SELECT 1 FROM postings p WHERE p.entry_id = e.id)
           OR EXISTS (SELECT 1 FROM postings p WHERE p.entry_id = e.id
                      GROUP BY p.currency HAVING sum(p.amount) <> 0)
    ) THEN"""
    + REFUSAL
)


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(PER_ENTRY)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(BEFORE)
