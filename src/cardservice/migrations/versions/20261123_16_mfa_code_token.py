"""An MFA code remembers the bearer token that minted it (`POST /auth/mfa-code`), so it
dies with that token (docs/api.md#hardening); codes issued by the CLI have none. Codes and tokens
are pruned by their expiry or revocation time, so both are indexed on it.

Revision ID: 20261123_16
Revises: 20261123_15
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261123_16"
down_revision = "20261123_15"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("mfa_codes") as batch_op:
        batch_op.add_column(sa.Column("token_uuid", sa.Uuid(), nullable=True))
        batch_op.create_foreign_key(
            "fk_mfa_codes_token_uuid_api_tokens", "api_tokens", ["token_uuid"], ["uuid"]
        )
        batch_op.create_index("ix_mfa_codes_token_uuid", ["token_uuid"])
        batch_op.create_index("ix_mfa_codes_expires_at", ["expires_at"])
    with op.batch_alter_table("api_tokens") as batch_op:
        batch_op.create_index("ix_api_tokens_expires_at", ["expires_at"])


def downgrade() -> None:
    with op.batch_alter_table("api_tokens") as batch_op:
        batch_op.drop_index("ix_api_tokens_expires_at")
    with op.batch_alter_table("mfa_codes") as batch_op:
        batch_op.drop_index("ix_mfa_codes_expires_at")
        batch_op.drop_index("ix_mfa_codes_token_uuid")
        batch_op.drop_constraint("fk_mfa_codes_token_uuid_api_tokens", type_="foreignkey")
        batch_op.drop_column("token_uuid")
