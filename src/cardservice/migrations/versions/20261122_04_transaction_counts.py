"""How many transactions each user has, kept by the database itself; 3DS codes by user.

The report's `meta.total` for an unfiltered page read this count instead of counting the
user's rows: page 1 costs the same at ten thousand transactions as at a million. A trigger
on `transactions` keeps it (insert +1, delete −1) in the same database transaction as the
row, on SQLite and on PostgreSQL, so no code path can forget it and bulk loads keep it too.

Revision ID: 20261122_04
Revises: 20261122_03
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261122_04"
down_revision = "20261122_03"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "transaction_counts",
        sa.Column(
            "user_uuid",
            sa.Uuid(),
            sa.ForeignKey("users.uuid", name="fk_transaction_counts_user_uuid_users"),
        ),
        sa.Column("transactions", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("transactions >= 0", name="ck_transaction_counts_not_negative"),
        sa.PrimaryKeyConstraint("user_uuid", name="pk_transaction_counts"),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            """
            CREATE FUNCTION count_transactions() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'INSERT' THEN
                    INSERT INTO transaction_counts (user_uuid, transactions)
                    VALUES (NEW.user_uuid, 1)
                    ON CONFLICT (user_uuid)
                    DO UPDATE SET transactions = transaction_counts.transactions + 1;
                ELSE
                    UPDATE transaction_counts SET transactions = transactions - 1
                    WHERE user_uuid = OLD.user_uuid;
                END IF;
                RETURN NULL;
            END $$
            """
        )
        op.execute(
            "CREATE TRIGGER transactions_counted AFTER INSERT OR DELETE ON transactions "
            "FOR EACH ROW EXECUTE FUNCTION count_transactions()"
        )
    else:
        op.execute(
            """
            CREATE TRIGGER transactions_counted AFTER INSERT ON transactions BEGIN
                INSERT OR IGNORE INTO transaction_counts (user_uuid, transactions)
                VALUES (NEW.user_uuid, 0);
                UPDATE transaction_counts SET transactions = transactions + 1
                WHERE user_uuid = NEW.user_uuid;
            END
            """
        )
        op.execute(
            """
            CREATE TRIGGER transactions_uncounted AFTER DELETE ON transactions BEGIN
                UPDATE transaction_counts SET transactions = transactions - 1
                WHERE user_uuid = OLD.user_uuid;
            END
            """
        )
    # the summary counts a user's unassigned 3DS codes
    op.create_index("ix_three_ds_codes_user_uuid", "three_ds_codes", ["user_uuid"])
    op.execute(
        "INSERT INTO transaction_counts (user_uuid, transactions) "
        "SELECT user_uuid, count(*) FROM transactions GROUP BY user_uuid"
    )


def downgrade() -> None:
    op.drop_index("ix_three_ds_codes_user_uuid", "three_ds_codes")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER transactions_counted ON transactions")
        op.execute("DROP FUNCTION count_transactions()")
    else:
        op.execute("DROP TRIGGER transactions_counted")
        op.execute("DROP TRIGGER transactions_uncounted")
    op.drop_table("transaction_counts")
