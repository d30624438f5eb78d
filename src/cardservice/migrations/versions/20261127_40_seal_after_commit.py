"""The ledger's hash chain is sealed after commit, in batches, by one sealer at a time.

Until now every unit that wrote an entry chained it as it committed (PostgreSQL: the
deferred constraint trigger `journal_entries_seal` running `ledger_seal()`, migration
20261124_29; SQLite: the unit's last commit hook), row-locking the one-row
`ledger_chain_head` and the day totals through the commit's WAL flush: every money commit of
the database waited for the previous one's flush, and no two could share one.

Now a unit writes its entries unsealed (no `chain_seq`, no `hash`) and touches no row shared
by unrelated accounts at COMMIT for the chain; the sealer (`cardservice.ledger.sealer`, a job
of the background loop of `serve` and `worker`) chains committed entries in batches and adds
them to the day totals (docs/ledger.md, "The hash chain").

* `journal_entries_seal`, `ledger_seal()` and `journal_entries.seal_form` go: the sealer
  hashes the canonical content from the entry's row and its postings.
* `refuse_entry_change()` lets through the one change an entry takes (its place and hash,
  once) without the form.
* `ix_journal_entries_unsealed`: the entries waiting for the sealer (a partial index, as
  `ix_events_unsequenced`), for the sealer's batch, the seal lag and the books' unsealed
  tail.

Every entry is sealed when this runs (the trigger chained each at its commit), so nothing
waits for the sealer here.

Revision ID: 20261127_40
Revises: 20261126_33
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261127_40"
down_revision = "20261127_39"
branch_labels = None
depends_on = None

UNSEALED = "chain_seq IS NULL"

REFUSE_ENTRY_CHANGE = """
CREATE OR REPLACE FUNCTION refuse_entry_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.chain_seq IS NULL AND OLD.hash IS NULL
            AND NEW.chain_seq IS NOT NULL AND NEW.hash IS NOT NULL
            AND to_jsonb(NEW) - 'chain_seq' - 'hash'
                = to_jsonb(OLD) - 'chain_seq' - 'hash' THEN
        RETURN NEW;  -- sealed once (ledger.sealer)
    END IF;
    RAISE EXCEPTION 'journal entries are never edited or deleted; post a reversal'
        USING ERRCODE = 'check_violation';
END $$
"""


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    if postgres:
        op.execute("DROP TRIGGER journal_entries_seal ON journal_entries")
        op.execute("DROP FUNCTION ledger_seal()")
        op.execute(REFUSE_ENTRY_CHANGE)
    # SQLite drops a column in place (3.35+): a batch would copy the table without its triggers
    op.execute("ALTER TABLE journal_entries DROP COLUMN seal_form")
    op.create_index(
        "ix_journal_entries_unsealed",
        "journal_entries",
        ["id"],
        postgresql_where=sa.text(UNSEALED),
        sqlite_where=sa.text(UNSEALED),
    )


def downgrade() -> None:
    raise NotImplementedError(
        "sealing after commit is not taken back; restore a backup of the revision before"
    )
