"""Foreign-currency purchases captured in parts (docs/transactions.md#foreign-currency).

`transactions.merchant_captured_amount`: what a foreign-currency purchase's captures took in
the merchant's currency so far (NULL for a purchase in the card's own currency), the
merchant-currency twin of `captured_amount`. With it `merchant_amount − merchant_captured_amount`
is what the merchant still holds, as `amount − captured_amount` is in the card's currency
(docs/transactions.md, "Foreign currency"). The database refuses a negative one (a CHECK on
PostgreSQL, triggers on SQLite, as the other amounts of 20261123_02).

Existing foreign purchases: pending, reversed or declined ones captured nothing (0); a
completed or refunded one was captured once and final, in the merchant amount authorized
unless its capture named another, which was not kept: its `merchant_amount` is taken.

Revision ID: 20261124_23
Revises: 20261124_22
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261124_23"
down_revision = "20261124_22"
branch_labels = None
depends_on = None


CHECK_NAME = "ck_transactions_merchant_captured_not_negative"
CHECK = "{r}merchant_captured_amount IS NULL OR {r}merchant_captured_amount >= 0"


def upgrade() -> None:
    op.add_column("transactions", sa.Column("merchant_captured_amount", sa.BigInteger()))
    op.execute(
        "UPDATE transactions SET merchant_captured_amount = CASE"
        " WHEN status IN ('completed', 'refunded') THEN merchant_amount ELSE 0 END"
        " WHERE merchant_currency IS NOT NULL"
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            f"ALTER TABLE transactions ADD CONSTRAINT {CHECK_NAME} CHECK ({CHECK.format(r='')})"
        )
        return
    for event in ("INSERT", "UPDATE"):
        op.execute(
            f"CREATE TRIGGER {CHECK_NAME}_{event.lower()} BEFORE {event} ON transactions"
            f" WHEN NOT ({CHECK.format(r='NEW.')})"
            f" BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: {CHECK_NAME}'); END"
        )


def downgrade() -> None:
    op.drop_column("transactions", "merchant_captured_amount")
