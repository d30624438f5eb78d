"""PostgreSQL: a deferred constraint trigger proves every journal entry sums to zero.

The check runs at commit, once per posting row, over the postings of that row's entry:
an entry whose postings do not sum to zero per currency makes the whole commit fail.
SQLite relies on the same check in code (`ledger.entries.post_entry`).

Revision ID: 20261122_03
Revises: 20261122_02
Create Date: 2026-11-22
"""

from __future__ import annotations

from alembic import op

revision = "20261122_03"
down_revision = "20261122_02"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(
        """
        CREATE FUNCTION check_entry_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF EXISTS (
                SELECT 1 FROM postings WHERE entry_id = NEW.entry_id
                GROUP BY currency HAVING SUM(amount) <> 0
            ) THEN
                RAISE EXCEPTION 'journal entry % does not sum to zero', NEW.entry_id
                    USING ERRCODE = 'check_violation';
            END IF;
            RETURN NULL;
        END $$;
        """
    )
    op.execute(
        """
        CREATE CONSTRAINT TRIGGER postings_balanced
        AFTER INSERT OR UPDATE ON postings
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION check_entry_balanced();
        """
    )
    op.execute(
        """
        CREATE FUNCTION refuse_posting_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'postings are never edited or deleted; post a reversal'
                USING ERRCODE = 'check_violation';
        END $$;
        """
    )
    op.execute(
        "CREATE TRIGGER postings_append_only BEFORE UPDATE OR DELETE ON postings "
        "FOR EACH ROW EXECUTE FUNCTION refuse_posting_change();"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER postings_append_only ON postings")
    op.execute("DROP FUNCTION refuse_posting_change()")
    op.execute("DROP TRIGGER postings_balanced ON postings")
    op.execute("DROP FUNCTION check_entry_balanced()")
