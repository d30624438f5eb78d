"""The card-testing guard (docs/network.md#card-testing).

`cards` gains:
- `frozen_reason`: why a frozen card is frozen, when the service froze it
  (`suspected_fraud`: the guard's 5th verification failure within 24 h); NULL when its
  holder froze it, and whenever its holder sets its status;
- `verification_failures`: JSON text, the times (ISO 8601) of the card's verification
  failures since its last approval or its holder's reset, the last 5 at most; NULL: none.

`card_testing_merchants` holds the guard's view of a merchant, the pair (acquirer id of
DE 32 as 11 digits, merchant id of DE 42): the times of its last 10 verification failures
and, once 10 fell within 10 minutes, the moment its block ends.

Revision ID: 20261126_31
Revises: 20261124_30
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261126_31"
down_revision = "20261124_30"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("cards", sa.Column("frozen_reason", sa.String(16), nullable=True))
    op.add_column("cards", sa.Column("verification_failures", sa.Text(), nullable=True))
    if op.get_bind().dialect.name == "postgresql":
        op.create_check_constraint(
            "ck_cards_frozen_reason",
            "cards",
            "frozen_reason IS NULL OR frozen_reason = 'suspected_fraud'",
        )
    op.create_table(
        "card_testing_merchants",
        sa.Column("acquirer_id", sa.String(11), nullable=False),
        sa.Column("merchant_id", sa.String(15), nullable=False),
        sa.Column("failures", sa.Text(), nullable=False),
        sa.Column("blocked_until", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("acquirer_id", "merchant_id", name="pk_card_testing_merchants"),
    )


def downgrade() -> None:
    op.drop_table("card_testing_merchants")
    if op.get_bind().dialect.name == "postgresql":
        op.drop_constraint("ck_cards_frozen_reason", "cards", type_="check")
    with op.batch_alter_table("cards") as batch:
        batch.drop_column("verification_failures")
        batch.drop_column("frozen_reason")
