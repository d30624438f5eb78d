"""The operator's read-back and card actions (docs/operations.md, "Reading the program back",
"Acting on cards").

- An operator may freeze a card: `cards.frozen_reason` may also say `operator` (its holder
  cannot unfreeze it; the operator does). On SQLite the column has no CHECK (20261126_31).
- `ix_transactions_created` (created_at, uuid): every user's transactions newest first
  (`GET /operator/transactions` and its CSV) walk an index, as one user's do.

Revision ID: 20261127_39
Revises: 20261126_33
Create Date: 2026-11-27
"""

from __future__ import annotations

from alembic import op

revision = "20261127_39"
down_revision = "20261127_36"
branch_labels = None
depends_on = None

WITH_OPERATOR = (
    "frozen_reason IS NULL OR frozen_reason IN ('suspected_fraud', 'receipt_missing', 'operator')"
)
WITHOUT = "frozen_reason IS NULL OR frozen_reason IN ('suspected_fraud', 'receipt_missing')"


def _check(condition: str) -> None:
    op.drop_constraint("ck_cards_frozen_reason", "cards", type_="check")
    op.create_check_constraint("ck_cards_frozen_reason", "cards", condition)


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        _check(WITH_OPERATOR)
    op.create_index("ix_transactions_created", "transactions", ["created_at", "uuid"])


def downgrade() -> None:
    op.drop_index("ix_transactions_created", table_name="transactions")
    # an operator's freeze stays a freeze, as its holder's (a NULL reason) would be
    op.execute("UPDATE cards SET frozen_reason = NULL WHERE frozen_reason = 'operator'")
    if op.get_bind().dialect.name == "postgresql":
        _check(WITHOUT)
