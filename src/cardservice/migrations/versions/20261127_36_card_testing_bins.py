"""The network channel, round 2 (docs/network.md, "Card state before details", "BIN lock",
"Activation codes"):

- `card_testing_bins`: the card-testing guard's view of a BIN the service issues from (field
  2's first 6 digits): the times of its last 21 unknown numbers, and, once 21 fell within 10
  minutes, the moment its lock ends and how many unknown numbers it has seen since the
  window that locked it began;
- `card_tokens.activation_failures`: the wrong activation codes sent for the token (the 3rd
  deletes it).

Revision ID: 20261127_36
Revises: 20261126_33
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261127_36"
down_revision = "20261126_33"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "card_testing_bins",
        sa.Column("bin", sa.String(6), nullable=False),
        sa.Column("unknown", sa.Text(), nullable=False),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("unknown_numbers", sa.Integer(), nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("bin", name="pk_card_testing_bins"),
    )
    with op.batch_alter_table("card_tokens") as batch_op:
        batch_op.add_column(
            sa.Column("activation_failures", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("card_tokens") as batch_op:
        batch_op.drop_column("activation_failures")
    op.drop_table("card_testing_bins")
