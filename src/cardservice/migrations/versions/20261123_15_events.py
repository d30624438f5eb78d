"""Events outbox, webhook endpoints, deliveries and attempts; the triggers that write events.

Every insert of a card, transaction, 3DS code or attachment, and every update of a card's
status, holder or auto-replenish settings or of a transaction's status or refunded amount,
inserts an `events` row in the same transaction, with `data` NULL; the unit of work fills
`data` with the object's API record before it commits (`events.outbox.complete_events`).
A card's balance is not watched: it moves on every authorization.

A change of a card's `spending_controls` (migration 20261123_04, before this one)
is a `card.updated` too.

PostgreSQL also refuses to commit an event whose `data` is still NULL (a deferred
constraint trigger): a write that bypassed the unit of work fails instead of emitting an
empty event. SQLite has no deferred triggers; there the next unit completes a leftover.

Revision ID: 20261123_15
Revises: 20261123_04
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261123_15"
down_revision = "20261123_04"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
CARD_WATCHED = (
    "status",
    "holder_name",
    "holder_address",
    "auto_replenish_amount",
    "auto_replenish_min_balance",
    "spending_controls",  # 20261123_04 (card controls) comes first
)
TRANSACTION_WATCHED = ("status", "refunded_amount")
# (trigger, table, timing, event type, object type, watched columns for an update)
TRIGGERS = (
    ("cards_event_created", "cards", "INSERT", "card.created", "card", ()),
    ("cards_event_updated", "cards", "UPDATE", "card.updated", "card", CARD_WATCHED),
    (
        "transactions_event_created",
        "transactions",
        "INSERT",
        "transaction.created",
        "transaction",
        (),
    ),
    (
        "transactions_event_updated",
        "transactions",
        "UPDATE",
        "transaction.updated",
        "transaction",
        TRANSACTION_WATCHED,
    ),
    (
        "three_ds_codes_event_created",
        "three_ds_codes",
        "INSERT",
        "three_ds.code_created",
        "three_ds_code",
        (),
    ),
    ("attachments_event_created", "attachments", "INSERT", "attachment.created", "attachment", ()),
)
# SQLite: a version-4 uuid as the 32 hex digits SQLAlchemy stores.
SQLITE_UUID4 = (
    "lower(hex(randomblob(6)) || '4' || substr(hex(randomblob(2)), 2)"
    " || substr('89ab', 1 + abs(random()) % 4, 1) || substr(hex(randomblob(2)), 2)"
    " || hex(randomblob(6)))"
)
SQLITE_NOW = "strftime('%Y-%m-%d %H:%M:%f000', 'now')"


def _create_tables() -> None:
    op.create_table(
        "events",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("sequence", sa.BigInteger(), nullable=True),
        sa.Column("uuid", sa.Uuid(), nullable=False),
        sa.Column("type", sa.String(length=40), nullable=False),
        sa.Column("user_uuid", sa.Uuid(), nullable=False),
        sa.Column("object_type", sa.String(length=24), nullable=False),
        sa.Column("object_uuid", sa.Uuid(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("data", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_events"),
        sa.UniqueConstraint("sequence", name="uq_events_sequence"),
        sa.UniqueConstraint("uuid", name="uq_events_uuid"),
    )
    op.create_index("ix_events_user_sequence", "events", ["user_uuid", "sequence"])
    for name, column in (("ix_events_pending", "data"), ("ix_events_unsequenced", "sequence")):
        where = sa.text(f"{column} IS NULL")
        op.create_index(name, "events", ["id"], postgresql_where=where, sqlite_where=where)
    op.create_table(
        "webhook_endpoints",
        sa.Column("uuid", sa.Uuid(), nullable=False),
        sa.Column("user_uuid", sa.Uuid(), nullable=False),
        sa.Column("url", sa.String(length=2048), nullable=False),
        sa.Column("description", sa.String(length=255), nullable=True),
        sa.Column("event_types", sa.JSON(), nullable=True),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("secret_ciphertext", sa.LargeBinary(), nullable=False),
        sa.Column("previous_secret_ciphertext", sa.LargeBinary(), nullable=True),
        sa.Column("previous_secret_expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_uuid"], ["users.uuid"], name="fk_webhook_endpoints_user_uuid_users"
        ),
        sa.PrimaryKeyConstraint("uuid", name="pk_webhook_endpoints"),
    )
    op.create_index("ix_webhook_endpoints_user_uuid", "webhook_endpoints", ["user_uuid"])
    op.create_table(
        "webhook_deliveries",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("endpoint_uuid", sa.Uuid(), nullable=False),
        sa.Column("event_id", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["endpoint_uuid"],
            ["webhook_endpoints.uuid"],
            name="fk_webhook_deliveries_endpoint_uuid_webhook_endpoints",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["event_id"], ["events.id"], name="fk_webhook_deliveries_event_id_events"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_webhook_deliveries"),
    )
    op.create_index(
        "ix_webhook_deliveries_due", "webhook_deliveries", ["status", "next_attempt_at"]
    )
    op.create_index("ix_webhook_deliveries_endpoint_uuid", "webhook_deliveries", ["endpoint_uuid"])
    op.create_index("ix_webhook_deliveries_event_id", "webhook_deliveries", ["event_id"])
    op.create_table(
        "webhook_attempts",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("delivery_id", sa.BigInteger(), nullable=False),
        sa.Column("endpoint_uuid", sa.Uuid(), nullable=False),
        sa.Column("event_uuid", sa.Uuid(), nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("duration_ms", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["delivery_id"],
            ["webhook_deliveries.id"],
            name="fk_webhook_attempts_delivery_id_webhook_deliveries",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["endpoint_uuid"],
            ["webhook_endpoints.uuid"],
            name="fk_webhook_attempts_endpoint_uuid_webhook_endpoints",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_webhook_attempts"),
    )
    op.create_index("ix_webhook_attempts_delivery_id", "webhook_attempts", ["delivery_id"])
    op.create_index("ix_webhook_attempts_endpoint", "webhook_attempts", ["endpoint_uuid", "id"])


def _changed(columns: tuple[str, ...], sqlite: bool) -> str:
    """Any of the columns changed (compared as text: PostgreSQL's json has no `=`)."""
    if sqlite:
        return " OR ".join(f"OLD.{c} IS NOT NEW.{c}" for c in columns)
    return " OR ".join(f"OLD.{c}::text IS DISTINCT FROM NEW.{c}::text" for c in columns)


def _postgresql_triggers() -> None:
    op.execute(
        """
        CREATE FUNCTION record_event() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO events (uuid, type, user_uuid, object_type, object_uuid, created_at)
            VALUES (gen_random_uuid(), TG_ARGV[0], NEW.user_uuid, TG_ARGV[1], NEW.uuid,
                    clock_timestamp());
            RETURN NULL;
        END $$;
        """
    )
    for name, table, timing, type_, object_type, watched in TRIGGERS:
        when = f"WHEN ({_changed(watched, sqlite=False)})" if watched else ""
        of = f"OF {', '.join(watched)}" if watched else ""
        op.execute(
            f"CREATE TRIGGER {name} AFTER {timing} {of} ON {table} FOR EACH ROW {when} "
            f"EXECUTE FUNCTION record_event('{type_}', '{object_type}')"
        )
    op.execute(
        """
        CREATE FUNCTION check_event_completed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF EXISTS (SELECT 1 FROM events WHERE id = NEW.id AND data IS NULL) THEN
                RAISE EXCEPTION 'event % committed without its data (write outside a unit '
                    'of work?)', NEW.uuid USING ERRCODE = 'check_violation';
            END IF;
            RETURN NULL;
        END $$;
        """
    )
    op.execute(
        "CREATE CONSTRAINT TRIGGER events_completed AFTER INSERT ON events "
        "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION check_event_completed()"
    )


def _sqlite_triggers() -> None:
    for name, table, timing, type_, object_type, watched in TRIGGERS:
        when = f"WHEN {_changed(watched, sqlite=True)}" if watched else ""
        op.execute(
            f"CREATE TRIGGER {name} AFTER {timing} ON {table} FOR EACH ROW {when} BEGIN "
            "INSERT INTO events (uuid, type, user_uuid, object_type, object_uuid, created_at) "
            f"VALUES ({SQLITE_UUID4}, '{type_}', NEW.user_uuid, '{object_type}', NEW.uuid, "
            f"{SQLITE_NOW}); END"
        )


def upgrade() -> None:
    _create_tables()
    if op.get_bind().dialect.name == "postgresql":
        _postgresql_triggers()
    else:
        _sqlite_triggers()


def downgrade() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    for name, table, *_ in TRIGGERS:
        op.execute(f"DROP TRIGGER {name} ON {table}" if postgresql else f"DROP TRIGGER {name}")
    if postgresql:
        op.execute("DROP TRIGGER events_completed ON events")
        op.execute("DROP FUNCTION check_event_completed()")
        op.execute("DROP FUNCTION record_event()")
    for table in ("webhook_attempts", "webhook_deliveries", "webhook_endpoints", "events"):
        op.drop_table(table)
