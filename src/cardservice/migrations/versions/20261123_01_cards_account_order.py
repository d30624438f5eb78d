"""An account's cards in their owner's order, as an index.

`GET /accounts` shows each account's primary card: the first of its cards, not closed, in
the owner's order (sort_order, created_at, uuid). With an index on `account_uuid` alone the
database sorted all of an account's cards for every account on the page (1,000 cards: the
whole list, every request); this index hands them over in order. It also serves every
lookup by account, so the old single-column index goes.

Revision ID: 20261123_01
Revises: 20261122_05
Create Date: 2026-11-23
"""

from __future__ import annotations

from alembic import op

revision = "20261123_01"
down_revision = "20261122_05"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("cards") as batch_op:
        batch_op.create_index(
            "ix_cards_account_order", ["account_uuid", "sort_order", "created_at", "uuid"]
        )
        batch_op.drop_index("ix_cards_account_uuid")


def downgrade() -> None:
    with op.batch_alter_table("cards") as batch_op:
        batch_op.create_index("ix_cards_account_uuid", ["account_uuid"])
        batch_op.drop_index("ix_cards_account_order")
