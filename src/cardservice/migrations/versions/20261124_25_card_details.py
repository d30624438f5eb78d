"""Card details a holder can use, an audit trail, card types
(docs/security.md#card-details-cvv2-and-issuer-keys).

* `audit_log`: who did what to which object, when, under which request (PCI DSS 10.2):
  every card-details reveal writes a row, and other writers (the operator API) can use it.
  Append-only, no foreign keys (the trail outlives what it names).
* `cards.card_type` (`multi_use` | `single_use` | `merchant_locked`, existing cards
  `multi_use`) and `cards.locked_merchant` (the merchant a `merchant_locked` card is bound
  to by its first approved authorization; NULL until then).
* `cards.pan_fingerprint` needs no backfill: it is NOT NULL and unique since the first
  schema (20261122_01), so every card can already be found by its number through it.

Revision ID: 20261124_25
Revises: 20261124_23
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261124_25"
down_revision = "20261124_23"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
CARD_TYPES = "card_type IN ('multi_use', 'single_use', 'merchant_locked')"


def upgrade() -> None:
    op.create_table(
        "audit_log",
        sa.Column("id", BIG_ID, primary_key=True, autoincrement=True),
        sa.Column("uuid", sa.Uuid(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_type", sa.String(32), nullable=False),
        sa.Column("actor_id", sa.String(64), nullable=True),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("object_type", sa.String(32), nullable=False),
        sa.Column("object_uuid", sa.Uuid(), nullable=True),
        sa.Column("request_id", sa.String(64), nullable=True),
        sa.Column("details", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
        sa.UniqueConstraint("uuid", name=op.f("uq_audit_log_uuid")),
    )
    op.create_index(
        "ix_audit_log_object", "audit_log", ["object_type", "object_uuid", "action", "created_at"]
    )
    op.create_index("ix_audit_log_actor", "audit_log", ["actor_type", "actor_id", "created_at"])
    op.create_index("ix_audit_log_created", "audit_log", ["created_at", "id"])
    # plain ALTERs (no batch copy of `cards` on SQLite, which would drop its triggers);
    # SQLite accepts a CHECK on an added column
    op.execute(
        "ALTER TABLE cards ADD COLUMN card_type VARCHAR(16) DEFAULT 'multi_use' NOT NULL"
        f" CONSTRAINT ck_cards_card_type CHECK ({CARD_TYPES})"
    )
    op.add_column("cards", sa.Column("locked_merchant", sa.String(120), nullable=True))


def downgrade() -> None:
    op.drop_column("cards", "locked_merchant")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE cards DROP CONSTRAINT ck_cards_card_type")
    op.drop_column("cards", "card_type")
    op.drop_table("audit_log")
