"""Card lifecycle, spending controls and the authorization decision endpoint.

* `cards.spending_controls`: the card's controls as JSON text (amounts in minor units),
  NULL when it has none;
* `transactions.decision`: who decided an authorization (`rules`, `endpoint`, `timeout`,
  `endpoint_error`, `stand_in`), NULL for every other transaction;
* the `card_close` transaction type (a closed card's balance going back to its account),
  added to the type rule both databases hold (CHECK on PostgreSQL, triggers on SQLite,
  written from one expression as in 20261123_02);
* `authorization_endpoints`: one per user; the signing secret encrypted with the card
  cipher; consecutive failures and `stand_in_until` in the row, so every worker shares them;
* the card's transactions index also carries what a spending window sums (type, status,
  amount, refunded_amount), so a limit check reads the index alone, never the rows (a card
  with 1,400 transactions: 2.2 ms a check on SQLite before); it keeps its prefix, so the
  card's report pages use it as before;
* the catalogue again: `do_not_honor` and cardholder-friendly error descriptions.

Revision ID: 20261123_04
Revises: 20261123_03
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from cardservice.catalogue.loader import sync_catalogue

revision = "20261123_04"
down_revision = "20261123_03"
branch_labels = None
depends_on = None

TYPES = (
    "card_purchase",
    "card_refund",
    "card_issue",
    "card_topup",
    "auto_replenish",
    "fee",
    "deposit",
    "card_close",
)
SPEND_INDEX = [
    "card_uuid", "created_at", "uuid", "type", "status", "amount", "refunded_amount"
]  # fmt: skip
DECISIONS = ("rules", "endpoint", "timeout", "endpoint_error", "stand_in")


def _in(values: tuple[str, ...]) -> str:
    return ", ".join(f"'{value}'" for value in values)


# `{r}` is the row: nothing in a CHECK, `NEW.` in a trigger.
CHECKS = {
    "type": f"{{r}}type IN ({_in(TYPES)})",
    "decision": f"{{r}}decision IS NULL OR {{r}}decision IN ({_in(DECISIONS)})",
}


def _checks(postgres: bool) -> None:
    for name, expression in CHECKS.items():
        if postgres:
            op.execute(f"ALTER TABLE transactions DROP CONSTRAINT IF EXISTS ck_transactions_{name}")
            op.execute(
                f"ALTER TABLE transactions ADD CONSTRAINT ck_transactions_{name}"
                f" CHECK ({expression.format(r='')})"
            )
            continue
        for event in ("INSERT", "UPDATE"):
            trigger = f"ck_transactions_{name}_{event.lower()}"
            op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
            op.execute(
                f"CREATE TRIGGER {trigger} BEFORE {event} ON transactions"
                f" WHEN NOT ({expression.format(r='NEW.')})"
                f" BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: ck_transactions_{name}');"
                " END"
            )


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    op.add_column("cards", sa.Column("spending_controls", sa.Text(), nullable=True))
    op.add_column("transactions", sa.Column("decision", sa.String(16), nullable=True))
    _checks(postgres)
    op.drop_index("ix_transactions_card_created", table_name="transactions")
    op.create_index("ix_transactions_card_created", "transactions", SPEND_INDEX)
    op.create_table(
        "authorization_endpoints",
        sa.Column("user_uuid", sa.Uuid(), nullable=False),
        sa.Column("url", sa.String(2048), nullable=False),
        sa.Column("secret_ciphertext", sa.LargeBinary(), nullable=False),
        sa.Column("timeout_ms", sa.Integer(), nullable=False),
        sa.Column("on_timeout", sa.String(8), nullable=False),
        sa.Column("consecutive_failures", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("stand_in_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_uuid"],
            ["users.uuid"],
            name="fk_authorization_endpoints_user_uuid_users",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_uuid", name="pk_authorization_endpoints"),
        sa.CheckConstraint(
            "timeout_ms BETWEEN 100 AND 3000", name="ck_authorization_endpoints_timeout_ms"
        ),
        sa.CheckConstraint(
            "on_timeout IN ('approve', 'decline')", name="ck_authorization_endpoints_on_timeout"
        ),
    )
    sync_catalogue(op.get_bind())


def downgrade() -> None:
    op.drop_index("ix_transactions_card_created", table_name="transactions")
    op.create_index(
        "ix_transactions_card_created", "transactions", ["card_uuid", "created_at", "uuid"]
    )
    op.drop_table("authorization_endpoints")
    op.drop_column("transactions", "decision")
    op.drop_column("cards", "spending_controls")
