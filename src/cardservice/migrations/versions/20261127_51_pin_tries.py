"""The PIN on the network (docs/cards.md#pin-in-iso-8583).

`cards.pin_failures`: the wrong PINs in a row since the last right one (the third blocks
the PIN, `pin_blocked`); written under the card's row lock by the authorization that counted
it.

The catalogue again: the decline slugs `invalid_pin` (`55`), `pin_tries_exceeded` (`75`)
and `virtual_card_present` (`57`).

Revision ID: 20261127_51
Revises: 20261127_48
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from cardservice.catalogue.loader import sync_catalogue

revision = "20261127_51"
down_revision = "20261127_48"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "cards",
        sa.Column("pin_failures", sa.Integer(), nullable=False, server_default="0"),
    )
    sync_catalogue(op.get_bind())


def downgrade() -> None:
    op.drop_column("cards", "pin_failures")  # SQLite drops it in place: its triggers stay
