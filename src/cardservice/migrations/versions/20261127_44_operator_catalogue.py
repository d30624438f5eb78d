"""The operator's own catalogue (docs/operations.md#your-own-catalogue).

- `bins.card_price`: the price of a card on the BIN (minor units), its buyers' `card_issue`
  fee; NULL (the shipped BINs) keeps the fee schedule's.
- `programs.fee_overrides`: JSON `[[slug, kind, value], …]` replacing the default plan's fees
  for the program's users (a user's own override still comes first).
- `fx_rate_history`: the rates the operator set, each in force from its `effective_at`; a pair
  without one converts at the catalogue's `fx_rates` row, as before.
- `ix_transactions_fx_pair`: the last foreign-currency authorization of a pair, which a new
  rate may not predate, found by an index walk (partial: domestic rows are left out).

Revision ID: 20261127_44
Revises: 20261127_43
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261127_44"
down_revision = "20261127_43"
branch_labels = None
depends_on = None

FOREIGN = "merchant_currency IS NOT NULL"


def upgrade() -> None:
    with op.batch_alter_table("bins") as batch_op:
        batch_op.add_column(sa.Column("card_price", sa.BigInteger(), nullable=True))
    with op.batch_alter_table("programs") as batch_op:
        batch_op.add_column(sa.Column("fee_overrides", sa.Text(), nullable=True))
    op.create_table(
        "fx_rate_history",
        sa.Column("uuid", sa.Uuid(), nullable=False),
        sa.Column("base", sa.String(3), nullable=False),
        sa.Column("quote", sa.String(3), nullable=False),
        sa.Column("rate", sa.String(32), nullable=False),
        sa.Column("effective_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("uuid", name="pk_fx_rate_history"),
    )
    op.create_index("ix_fx_rate_history_pair", "fx_rate_history", ["base", "quote", "effective_at"])
    op.create_index(
        "ix_transactions_fx_pair",
        "transactions",
        ["merchant_currency", "currency", "created_at"],
        postgresql_where=sa.text(FOREIGN),
        sqlite_where=sa.text(FOREIGN),
    )


def downgrade() -> None:
    op.drop_index("ix_transactions_fx_pair", table_name="transactions")
    op.drop_index("ix_fx_rate_history_pair", table_name="fx_rate_history")
    op.drop_table("fx_rate_history")
    with op.batch_alter_table("programs") as batch_op:
        batch_op.drop_column("fee_overrides")
    with op.batch_alter_table("bins") as batch_op:
        batch_op.drop_column("card_price")
