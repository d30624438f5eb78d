"""A bearer token remembers the operator key that issued it (`POST /operator/users/{uuid}/
tokens`), so that a card reveal made with it names that key in its audit row
(docs/security.md#network-trust-isolation-statements-help-desk): a holder's own reveal and one made
through the program's help desk are told apart. Tokens a user or the CLI made have none.

Revision ID: 20261126_35
Revises: 20261126_34
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261126_35"
down_revision = "20261126_34"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("api_tokens") as batch_op:
        batch_op.add_column(sa.Column("issued_by_key", sa.Uuid(), nullable=True))
        batch_op.create_foreign_key(
            "fk_api_tokens_issued_by_key_operator_keys",
            "operator_keys",
            ["issued_by_key"],
            ["uuid"],
        )


def downgrade() -> None:
    with op.batch_alter_table("api_tokens") as batch_op:
        batch_op.drop_constraint("fk_api_tokens_issued_by_key_operator_keys", type_="foreignkey")
        batch_op.drop_column("issued_by_key")
