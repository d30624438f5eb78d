"""What each card spent per UTC day, kept by the database: the spending controls' windows.

A card's daily, weekly, monthly and lifetime limits (docs/controls.md#spending-controls) were
checked by summing the card's purchases inside the longest window set: with a lifetime limit, every
purchase the card ever made, on every authorization (its cost grew with the card's history; the
controls bench lost 15 % of its throughput over a minute of purchases). Now the counters' trigger
keeps `card_spend` (card, day) = the card's spend that day, where spend is what the engine
counts against the limits: approved card purchases (pending, completed, refunded) less what
was refunded of them. The check reads at most a row per day the card spent on.

PostgreSQL: a fourth section of `keep_counters`, the one trigger that keeps every counter in
one order (user's count, user's spend days, tag, then this card's day), now also fired by a
change of `refunded_amount` or `card_uuid`. The card's row is always locked by the unit
that changes its purchases (docs/ledger.md, lock order), so its day row is never contended
outside that lock. SQLite: triggers of their own, as for `daily_spend`.

Revision ID: 20261124_22
Revises: 20261123_21
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261124_22"
down_revision = "20261123_21"
branch_labels = None
depends_on = None

COUNTED = "type = 'card_purchase' AND status IN ('pending', 'completed', 'refunded')"
WATCHED = "status, amount, refunded_amount, type, created_at, currency, user_uuid, card_uuid"

KEEP_COUNTERS = """
CREATE OR REPLACE FUNCTION keep_counters() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- 1. the user's transaction count (its row is the first counter any unit takes)
    IF TG_OP = 'INSERT' THEN
        INSERT INTO transaction_counts (user_uuid, transactions) VALUES (NEW.user_uuid, 1)
        ON CONFLICT (user_uuid)
        DO UPDATE SET transactions = transaction_counts.transactions + 1;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE transaction_counts SET transactions = transactions - 1
        WHERE user_uuid = OLD.user_uuid;
    ELSE
        PERFORM 1 FROM transaction_counts WHERE user_uuid = NEW.user_uuid FOR UPDATE;
    END IF;
    -- 2. the user's spend days
    IF TG_OP <> 'INSERT' AND OLD.type = 'card_purchase'
            AND OLD.status IN ('pending', 'completed') THEN
        UPDATE daily_spend SET amount = amount - OLD.amount
        WHERE user_uuid = OLD.user_uuid AND currency = OLD.currency
          AND spent_on = (OLD.created_at AT TIME ZONE 'UTC')::date;
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.type = 'card_purchase'
            AND NEW.status IN ('pending', 'completed') THEN
        INSERT INTO daily_spend (user_uuid, currency, spent_on, amount)
        VALUES (NEW.user_uuid, NEW.currency, (NEW.created_at AT TIME ZONE 'UTC')::date,
                NEW.amount)
        ON CONFLICT (user_uuid, currency, spent_on)
        DO UPDATE SET amount = daily_spend.amount + EXCLUDED.amount;
    END IF;
    -- 3. the tag's popularity: every transaction carrying it
    IF TG_OP = 'INSERT' AND NEW.tag_slug IS NOT NULL THEN
        UPDATE transaction_tags SET transactions_count = transactions_count + 1
        WHERE slug = NEW.tag_slug;
    END IF;
    -- 4. the card's spend days (its spending controls' windows)
    IF TG_OP <> 'INSERT' AND OLD.type = 'card_purchase'
            AND OLD.status IN ('pending', 'completed', 'refunded') THEN
        UPDATE card_spend SET amount = amount - (OLD.amount - OLD.refunded_amount)
        WHERE card_uuid = OLD.card_uuid
          AND spent_on = (OLD.created_at AT TIME ZONE 'UTC')::date;
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.type = 'card_purchase'
            AND NEW.status IN ('pending', 'completed', 'refunded') THEN
        INSERT INTO card_spend (card_uuid, spent_on, amount)
        VALUES (NEW.card_uuid, (NEW.created_at AT TIME ZONE 'UTC')::date,
                NEW.amount - NEW.refunded_amount)
        ON CONFLICT (card_uuid, spent_on)
        DO UPDATE SET amount = card_spend.amount + EXCLUDED.amount;
    END IF;
    RETURN NULL;
END $$
"""


def _sqlite_triggers() -> list[str]:
    def counted(row: str) -> str:
        return (
            f"{row}.type = 'card_purchase' AND {row}.status IN ('pending', 'completed', 'refunded')"
        )

    def key(row: str) -> str:
        return f"card_uuid = {row}.card_uuid AND spent_on = substr({row}.created_at, 1, 10)"

    add = (
        "INSERT OR IGNORE INTO card_spend (card_uuid, spent_on, amount)"
        " VALUES (NEW.card_uuid, substr(NEW.created_at, 1, 10), 0);"
        " UPDATE card_spend SET amount = amount + (NEW.amount - NEW.refunded_amount)"
        f" WHERE {key('NEW')};"
    )
    remove = (
        "UPDATE card_spend SET amount = amount - (OLD.amount - OLD.refunded_amount)"
        f" WHERE {key('OLD')};"
    )
    return [
        f"CREATE TRIGGER card_spend_inserted AFTER INSERT ON transactions"
        f" WHEN {counted('NEW')} BEGIN {add} END",
        f"CREATE TRIGGER card_spend_deleted AFTER DELETE ON transactions"
        f" WHEN {counted('OLD')} BEGIN {remove} END",
        f"CREATE TRIGGER card_spend_updated_out AFTER UPDATE OF {WATCHED} ON transactions"
        f" WHEN {counted('OLD')} BEGIN {remove} END",
        f"CREATE TRIGGER card_spend_updated_in AFTER UPDATE OF {WATCHED} ON transactions"
        f" WHEN {counted('NEW')} BEGIN {add} END",
    ]


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    op.create_table(
        "card_spend",
        sa.Column(
            "card_uuid",
            sa.Uuid(),
            sa.ForeignKey("cards.uuid", name="fk_card_spend_card_uuid_cards"),
            nullable=False,
        ),
        sa.Column("spent_on", sa.Date() if postgres else sa.String(10), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("amount >= 0", name="ck_card_spend_not_negative"),
        sa.PrimaryKeyConstraint("card_uuid", "spent_on", name="pk_card_spend"),
    )
    if postgres:
        op.execute(KEEP_COUNTERS)
        op.execute("DROP TRIGGER transactions_counters ON transactions")
        op.execute(
            f"CREATE TRIGGER transactions_counters AFTER INSERT OR UPDATE OF {WATCHED}"
            " OR DELETE ON transactions FOR EACH ROW EXECUTE FUNCTION keep_counters()"
        )
        day = "(created_at AT TIME ZONE 'UTC')::date"
    else:
        for statement in _sqlite_triggers():
            op.execute(statement)
        day = "substr(created_at, 1, 10)"
    op.execute(
        f"INSERT INTO card_spend (card_uuid, spent_on, amount)"
        f" SELECT card_uuid, {day}, sum(amount - refunded_amount) FROM transactions"
        f" WHERE {COUNTED} AND card_uuid IS NOT NULL GROUP BY card_uuid, {day}"
    )


def downgrade() -> None:
    raise NotImplementedError("counters are not taken back; restore a backup instead")
