"""Program-wide webhook endpoints (docs/events.md#program-wide-endpoints) and the operator
console's sign-ins (docs/operations.md#the-operator-console).

- `webhook_endpoints.user_uuid` may be NULL: such an endpoint is the operator's, and receives
  every event of the service. It is the same table, so the same outbox, delivery queue,
  delivery loop and key rotation serve it (its secret is `webhook_endpoints.secret_ciphertext`,
  an encrypted column `keys rotate` and `keys check` already walk).
- `console_sessions`: a one-time console link (its hash, 15 minutes) and the 12-hour session
  it opens (its hash), one row per sign-in.

Revision ID: 20261127_45
Revises: 20261127_44
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261127_45"
down_revision = "20261127_44"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("webhook_endpoints") as batch:
        batch.alter_column("user_uuid", existing_type=sa.Uuid(), nullable=True)
    when = sa.DateTime(timezone=True)
    op.create_table(
        "console_sessions",
        sa.Column("uuid", sa.Uuid(), nullable=False),
        sa.Column("link_hash", sa.String(64), nullable=False),
        sa.Column("link_expires_at", when, nullable=False),
        sa.Column("signed_in_at", when, nullable=True),
        sa.Column("session_hash", sa.String(64), nullable=True),
        sa.Column("session_expires_at", when, nullable=True),
        sa.Column("ended_at", when, nullable=True),
        sa.Column("created_at", when, nullable=False),
        sa.PrimaryKeyConstraint("uuid", name="pk_console_sessions"),
        sa.UniqueConstraint("link_hash", name="uq_console_sessions_link_hash"),
        sa.UniqueConstraint("session_hash", name="uq_console_sessions_session_hash"),
    )


def downgrade() -> None:
    op.drop_table("console_sessions")
    # the operator's endpoints have no user to keep them: they go, with their queues
    op.execute(
        "DELETE FROM webhook_attempts WHERE endpoint_uuid IN "
        "(SELECT uuid FROM webhook_endpoints WHERE user_uuid IS NULL)"
    )
    op.execute(
        "DELETE FROM webhook_deliveries WHERE endpoint_uuid IN "
        "(SELECT uuid FROM webhook_endpoints WHERE user_uuid IS NULL)"
    )
    op.execute("DELETE FROM webhook_endpoints WHERE user_uuid IS NULL")
    with op.batch_alter_table("webhook_endpoints") as batch:
        batch.alter_column("user_uuid", existing_type=sa.Uuid(), nullable=False)
