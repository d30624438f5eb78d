"""Load the shipped reference catalogue.

Revision ID: 20261122_02
Revises: 20261122_01
Create Date: 2026-11-22
"""

from __future__ import annotations

from alembic import op

from cardservice.catalogue.loader import sync_catalogue

revision = "20261122_02"
down_revision = "20261122_01"
branch_labels = None
depends_on = None


def upgrade() -> None:
    sync_catalogue(op.get_bind())


def downgrade() -> None:
    pass
