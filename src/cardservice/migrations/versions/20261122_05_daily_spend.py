"""Card spend per user, currency and UTC day, kept by the database itself.

The summary's spend (today, last 7 days, this month) adds at most 31 of these rows instead
of every purchase of the month: its cost no longer grows with the history. Spend is the
amount of card purchases that are pending or completed (money that left and stayed gone);
triggers on `transactions` move a purchase's amount in or out of its day as it is inserted,
changes status, or is deleted — in the same database transaction as the row.

Revision ID: 20261122_05
Revises: 20261122_04
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261122_05"
down_revision = "20261122_04"
branch_labels = None
depends_on = None

SPENDING = "type = 'card_purchase' AND status IN ('pending', 'completed')"
TRACKED = "status, amount, type, created_at, currency, user_uuid"


def _sqlite_triggers() -> list[str]:
    def counted(row: str) -> str:
        return f"{row}.type = 'card_purchase' AND {row}.status IN ('pending', 'completed')"

    def key(row: str) -> str:
        return (
            f"user_uuid = {row}.user_uuid AND currency = {row}.currency"
            f" AND spent_on = substr({row}.created_at, 1, 10)"
        )

    add = (
        "INSERT OR IGNORE INTO daily_spend (user_uuid, currency, spent_on, amount)"
        " VALUES (NEW.user_uuid, NEW.currency, substr(NEW.created_at, 1, 10), 0);"
        f" UPDATE daily_spend SET amount = amount + NEW.amount WHERE {key('NEW')};"
    )
    remove = f"UPDATE daily_spend SET amount = amount - OLD.amount WHERE {key('OLD')};"
    return [
        f"CREATE TRIGGER spend_inserted AFTER INSERT ON transactions"
        f" WHEN {counted('NEW')} BEGIN {add} END",
        f"CREATE TRIGGER spend_deleted AFTER DELETE ON transactions"
        f" WHEN {counted('OLD')} BEGIN {remove} END",
        f"CREATE TRIGGER spend_updated_out AFTER UPDATE OF {TRACKED} ON transactions"
        f" WHEN {counted('OLD')} BEGIN {remove} END",
        f"CREATE TRIGGER spend_updated_in AFTER UPDATE OF {TRACKED} ON transactions"
        f" WHEN {counted('NEW')} BEGIN {add} END",
    ]


POSTGRES_FUNCTION = """
CREATE FUNCTION track_spend() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
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
    RETURN NULL;
END $$
"""


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    op.create_table(
        "daily_spend",
        sa.Column(
            "user_uuid",
            sa.Uuid(),
            sa.ForeignKey("users.uuid", name="fk_daily_spend_user_uuid_users"),
            nullable=False,
        ),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("spent_on", sa.Date() if postgres else sa.String(10), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("amount >= 0", name="ck_daily_spend_not_negative"),
        sa.PrimaryKeyConstraint("user_uuid", "currency", "spent_on", name="pk_daily_spend"),
    )
    if postgres:
        op.execute(POSTGRES_FUNCTION)
        op.execute(
            f"CREATE TRIGGER transactions_spend AFTER INSERT OR UPDATE OF {TRACKED} OR DELETE"
            " ON transactions FOR EACH ROW EXECUTE FUNCTION track_spend()"
        )
        day = "(created_at AT TIME ZONE 'UTC')::date"
    else:
        for statement in _sqlite_triggers():
            op.execute(statement)
        day = "substr(created_at, 1, 10)"
    op.execute(
        "INSERT INTO daily_spend (user_uuid, currency, spent_on, amount)"
        f" SELECT user_uuid, currency, {day}, sum(amount) FROM transactions"
        f" WHERE {SPENDING} GROUP BY user_uuid, currency, {day}"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER transactions_spend ON transactions")
        op.execute("DROP FUNCTION track_spend()")
    else:
        for name in ("spend_inserted", "spend_deleted", "spend_updated_out", "spend_updated_in"):
            op.execute(f"DROP TRIGGER {name}")
    op.drop_table("daily_spend")
