"""One-time dashboard sign-in links (`cardservice dashboard link`), stored as hashes.

Revision ID: 20261123_03
Revises: 20261123_02
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261123_03"
down_revision = "20261123_02"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sign_in_links",
        sa.Column("user_uuid", sa.Uuid(), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("uuid", sa.Uuid(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_uuid"], ["users.uuid"], name=op.f("fk_sign_in_links_user_uuid_users")
        ),
        sa.PrimaryKeyConstraint("uuid", name=op.f("pk_sign_in_links")),
        sa.UniqueConstraint("secret_hash", name=op.f("uq_sign_in_links_secret_hash")),
    )
    with op.batch_alter_table("sign_in_links") as batch_op:
        batch_op.create_index(batch_op.f("ix_sign_in_links_user_uuid"), ["user_uuid"])


def downgrade() -> None:
    with op.batch_alter_table("sign_in_links") as batch_op:
        batch_op.drop_index(batch_op.f("ix_sign_in_links_user_uuid"))
    op.drop_table("sign_in_links")
