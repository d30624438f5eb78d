"""The operator's own events (docs/events.md#the-operators-own-events): `events.user_uuid`
may be NULL. Such an event belongs to no cardholder — a clearing file ingested, a BIN locked
by the card-testing guard — and is written with its data; the same outbox numbers it and the
same delivery loop delivers it, to the program-wide endpoints only.

PostgreSQL drops the NOT NULL; SQLite's is removed in place in the schema text (the
documented `writable_schema` way of removing a NOT NULL, which rewrites no row), because a
rebuilt `events` table would cost a copy of the whole log and the foreign keys that point at
it.

Revision ID: 20261127_54
Revises: 20261127_50
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261127_54"
down_revision = "20261127_50"
branch_labels = None
depends_on = None

OWNED = "user_uuid CHAR(32) NOT NULL,"
OWNERLESS = "user_uuid CHAR(32),"


def _sqlite_user_uuid(old: str, new: str) -> None:
    op.execute("PRAGMA writable_schema = ON")
    op.execute(
        sa.text(
            "UPDATE sqlite_master SET sql = replace(sql, :old, :new)"
            " WHERE type = 'table' AND name = 'events'"
        ).bindparams(old=old, new=new)
    )
    version = op.get_bind().exec_driver_sql("PRAGMA schema_version").scalar_one()
    op.execute(f"PRAGMA schema_version = {int(version) + 1}")
    op.execute("PRAGMA writable_schema = OFF")


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.alter_column("events", "user_uuid", existing_type=sa.Uuid(), nullable=True)
    else:
        _sqlite_user_uuid(OWNED, OWNERLESS)


def downgrade() -> None:
    # the operator's own events have no owner to keep them: they go, with their deliveries
    op.execute(
        "DELETE FROM webhook_deliveries WHERE event_id IN"
        " (SELECT id FROM events WHERE user_uuid IS NULL)"
    )
    op.execute("DELETE FROM events WHERE user_uuid IS NULL")
    if op.get_bind().dialect.name == "postgresql":
        op.alter_column("events", "user_uuid", existing_type=sa.Uuid(), nullable=False)
    else:
        _sqlite_user_uuid(OWNERLESS, OWNED)
