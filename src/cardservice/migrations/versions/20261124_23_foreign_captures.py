"""Foreign-currency purchases captured in parts (issue 20, API.md §12).

`transactions.merchant_captured_amount`: what a foreign-currency purchase's captures took in
the merchant's currency so far (NULL for a purchase in the card's own currency), the
merchant-currency twin of `captured_amount`. With it `merchant_amount − merchant_captured_amount`
is what the merchant still holds, as `amount − captured_amount` is in the card's currency
(docs/transactions.md, "Foreign currency").

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


def upgrade() -> None:
    op.add_column("transactions", sa.Column("merchant_captured_amount", sa.BigInteger()))
    op.execute(
        "UPDATE transactions SET merchant_captured_amount = CASE"
        " WHEN status IN ('completed', 'refunded') THEN merchant_amount ELSE 0 END"
        " WHERE merchant_currency IS NOT NULL"
    )


def downgrade() -> None:
    op.drop_column("transactions", "merchant_captured_amount")
