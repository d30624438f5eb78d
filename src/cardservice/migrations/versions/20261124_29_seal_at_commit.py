"""PostgreSQL chains each journal entry itself, as the unit commits.

Until now the unit's last commit hook (`ledger.chain.seal`) read its entries back, locked the
chain head, hashed in the service and wrote the hashes: the head's row lock was held over two
round trips and the service's event loop, so on a busy worker every write of the database
waited in line behind that loop (docs/performance.md#the-chain-sealed-in-the-database:
sandbox authorizations 620 → 319/s at the merge that brought the chain).

Now the service writes each entry with its canonical content's form
(`journal_entries.seal_form`: the content with the id, the previous hash and the place left
as placeholders, `ledger.chain.form`), and a constraint trigger deferred to COMMIT,
`ledger_seal`, does the rest inside the database: it bumps the head (the upsert waits for the
previous holder's commit and then sees its result), fills the form, takes its SHA-256,
writes the entry's place and hash (and clears the form), sets the head's hash and adds the
entry's postings to `ledger_day_totals` and `ledger_holder_days`. The head is held from
there to the end of the commit, with no round trip inside. An entry undone by a savepoint
never reaches COMMIT, so it is not chained; an entry written without a form (a bulk loader
that chains in process, `tx.ledger_entries`) is left to its writer.

SQLite is unchanged: its writer holds the whole database for a unit, so chaining in the
unit's last commit hook keeps nobody waiting; `seal_form` stays empty there.

Revision ID: 20261124_29
Revises: 20261124_28
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261124_29"
down_revision = "20261124_28"
branch_labels = None
depends_on = None

POSTGRES = [
    # the one change an entry takes: its place and hash, once, its form cleared with them
    """
    CREATE OR REPLACE FUNCTION refuse_entry_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'UPDATE' AND OLD.chain_seq IS NULL AND OLD.hash IS NULL
                AND NEW.chain_seq IS NOT NULL AND NEW.hash IS NOT NULL
                AND NEW.seal_form IS NULL
                AND to_jsonb(NEW) - 'chain_seq' - 'hash' - 'seal_form'
                    = to_jsonb(OLD) - 'chain_seq' - 'hash' - 'seal_form' THEN
            RETURN NEW;  -- chained once (ledger_seal, ledger.chain.seal)
        END IF;
        RAISE EXCEPTION 'journal entries are never edited or deleted; post a reversal'
            USING ERRCODE = 'check_violation';
    END $$
    """,
    # the placeholders and their replaces are ledger.chain's ID, PREV, SEQ and fill()
    """
    CREATE FUNCTION ledger_seal() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        entry journal_entries%ROWTYPE;
        place bigint;
        prev text;
        digest text;
        entry_day date;
    BEGIN
        SELECT * INTO entry FROM journal_entries WHERE id = NEW.id;
        IF entry.seal_form IS NULL OR entry.chain_seq IS NOT NULL THEN
            RETURN NULL;  -- chained by its writer in process (ledger.chain.seal)
        END IF;
        INSERT INTO ledger_chain_head AS head (id, seq, hash) VALUES (1, 1, repeat('0', 64))
        ON CONFLICT (id) DO UPDATE SET seq = head.seq + 1
        RETURNING seq, hash INTO place, prev;
        digest := encode(sha256(convert_to(
            replace(replace(replace(entry.seal_form,
                '"@@id@@"', entry.id::text), '@@prev@@', prev), '"@@seq@@"', place::text),
            'UTF8')), 'hex');
        UPDATE journal_entries SET chain_seq = place, hash = digest, seal_form = NULL
        WHERE id = entry.id;
        UPDATE ledger_chain_head SET hash = digest WHERE id = 1;
        entry_day := (entry.created_at AT TIME ZONE 'UTC')::date;
        INSERT INTO ledger_day_totals AS t (day, holder_class, kind, currency, amount, postings)
        SELECT entry_day, coalesce(p.system_book,
                             CASE WHEN p.account_uuid IS NULL THEN 'card' ELSE 'account' END),
               entry.kind, p.currency, sum(p.amount), count(*)
        FROM postings p WHERE p.entry_id = entry.id
        GROUP BY 2, 4 ORDER BY 2, 4
        ON CONFLICT (day, holder_class, kind, currency) DO UPDATE
        SET amount = t.amount + EXCLUDED.amount, postings = t.postings + EXCLUDED.postings;
        INSERT INTO ledger_holder_days AS h (holder, day, currency, amount)
        SELECT coalesce('account:' || p.account_uuid::text, 'card:' || p.card_uuid::text),
               entry_day, p.currency, sum(p.amount)
        FROM postings p WHERE p.entry_id = entry.id AND p.system_book IS NULL
        GROUP BY 1, 3 ORDER BY 1, 3
        ON CONFLICT (holder, day, currency) DO UPDATE SET amount = h.amount + EXCLUDED.amount;
        RETURN NULL;
    END $$
    """,
    "CREATE CONSTRAINT TRIGGER journal_entries_seal AFTER INSERT ON journal_entries"
    " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_seal()",
]


def upgrade() -> None:
    op.add_column("journal_entries", sa.Column("seal_form", sa.Text()))
    if op.get_bind().dialect.name == "postgresql":
        for statement in POSTGRES:
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER journal_entries_seal ON journal_entries")
        op.execute("DROP FUNCTION ledger_seal()")
        op.execute(
            POSTGRES[0]
            .replace("                AND NEW.seal_form IS NULL\n", "")
            .replace(" - 'seal_form'", "")
        )
    op.drop_column("journal_entries", "seal_form")
