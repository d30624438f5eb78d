"""A tag's popularity is counted after commit, not in a row every unit of the tag locks.

Until now a transaction carrying a tag added 1 to its tag's `transactions_count` as its unit
committed (PostgreSQL: the deferred constraint trigger `transactions_tag_counted`, migration
20261124_30; SQLite: an AFTER INSERT trigger, migration 20261123_02): the tag's row stayed
locked through the commit's WAL flush, so every tagged authorization of a popular merchant,
whatever its account, waited for the previous one's flush — the last row shared by units of
unrelated accounts through COMMIT (docs/ledger.md, "Lock order").

Now the trigger inserts a row into `tag_counts_waiting` (insert only: no row another unit
writes), and the tag counter's job of the background loop (`transactions.tag_counts`) adds
the committed ones to their tags and deletes them, in one statement; a read adds what still
waits (docs/ledger.md, "Counters kept after commit"). Same trigger on both databases.

Revision ID: 20261127_43
Revises: 20261127_46
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261127_43"
down_revision = "20261127_46"
branch_labels = None
depends_on = None

COUNT_TAG_WAITING = """
CREATE OR REPLACE FUNCTION count_tag() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO tag_counts_waiting (tag_slug) VALUES (NEW.tag_slug);
    RETURN NULL;
END $$
"""
COUNT_TAG_AT_COMMIT = """
CREATE OR REPLACE FUNCTION count_tag() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE transaction_tags SET transactions_count = transactions_count + 1
    WHERE slug = NEW.tag_slug;
    RETURN NULL;
END $$
"""
PG_TRIGGER = (
    "CREATE TRIGGER transactions_tag_counted AFTER INSERT ON transactions"
    " FOR EACH ROW WHEN (NEW.tag_slug IS NOT NULL) EXECUTE FUNCTION count_tag()"
)
PG_TRIGGER_AT_COMMIT = (
    "CREATE CONSTRAINT TRIGGER transactions_tag_counted AFTER INSERT ON transactions"
    " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.tag_slug IS NOT NULL)"
    " EXECUTE FUNCTION count_tag()"
)
SQLITE_TRIGGER = (
    "CREATE TRIGGER transactions_tag_counted AFTER INSERT ON transactions"
    " WHEN NEW.tag_slug IS NOT NULL BEGIN"
    " INSERT INTO tag_counts_waiting (tag_slug) VALUES (NEW.tag_slug); END"
)
SQLITE_TRIGGER_IN_UNIT = (
    "CREATE TRIGGER transactions_tag_counted AFTER INSERT ON transactions"
    " WHEN NEW.tag_slug IS NOT NULL BEGIN"
    " UPDATE transaction_tags SET transactions_count = transactions_count + 1"
    " WHERE slug = NEW.tag_slug; END"
)
FOLD_ALL = (
    "UPDATE transaction_tags SET transactions_count = transactions_count"
    " + (SELECT count(*) FROM tag_counts_waiting w WHERE w.tag_slug = transaction_tags.slug)"
    " WHERE slug IN (SELECT tag_slug FROM tag_counts_waiting)"
)


def upgrade() -> None:
    op.create_table(
        "tag_counts_waiting",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True),
        sa.Column("tag_slug", sa.String(64), nullable=False),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER transactions_tag_counted ON transactions")
        op.execute(COUNT_TAG_WAITING)
        op.execute(PG_TRIGGER)
    else:
        op.execute("DROP TRIGGER transactions_tag_counted")
        op.execute(SQLITE_TRIGGER)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER transactions_tag_counted ON transactions")
        op.execute(COUNT_TAG_AT_COMMIT)
        op.execute(PG_TRIGGER_AT_COMMIT)
    else:
        op.execute("DROP TRIGGER transactions_tag_counted")
        op.execute(SQLITE_TRIGGER_IN_UNIT)
    op.execute(FOLD_ALL)
    op.drop_table("tag_counts_waiting")
