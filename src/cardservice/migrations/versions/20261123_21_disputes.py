"""Disputes (docs/transactions.md#disputes).

* `disputes`: one row per dispute of a completed card purchase, `open → won | lost`; the
  database holds "one open dispute per transaction" (a unique partial index), so 20
  disputes opened at once on one purchase create exactly one;
* the `dispute_credit` transaction type (a won dispute's money back to the card), added to
  the type rule both databases hold (as 20261123_04 did for `card_close`), and "a purchase
  is credited by a dispute at most once" (a unique partial index on `parent_uuid`);
* `transactions.captured_at`: when a purchase became `completed` (the 120-day dispute window
  runs from it), set by the database itself whatever path settles the purchase (a BEFORE
  trigger on PostgreSQL, an AFTER trigger on SQLite, which cannot change NEW); purchases
  completed before this migration take their `updated_at`;
* the events `dispute.created` and `dispute.updated` (a change of status), written by
  triggers as in 20261123_15;
* the catalogue again: the dispute refusals in the transaction-errors dictionary.

Revision ID: 20261123_21
Revises: 20261123_20
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from cardservice.catalogue.loader import sync_catalogue

revision = "20261123_21"
down_revision = "20261123_20"
branch_labels = None
depends_on = None

TYPES = (
    "card_purchase",
    "card_refund",
    "card_issue",
    "card_topup",
    "auto_replenish",
    "fee",
    "deposit",
    "card_close",
    "dispute_credit",
)
REASONS = ("fraudulent", "not_received", "duplicate", "canceled", "not_as_described", "other")
OPEN = sa.text("status = 'open'")
CREDIT = sa.text("type = 'dispute_credit'")
# (trigger, timing, event type, watched columns of an update)
EVENTS = (
    ("disputes_event_created", "INSERT", "dispute.created", ()),
    ("disputes_event_updated", "UPDATE", "dispute.updated", ("status",)),
)
SQLITE_UUID4 = (
    "lower(hex(randomblob(6)) || '4' || substr(hex(randomblob(2)), 2)"
    " || substr('89ab', 1 + abs(random()) % 4, 1) || substr(hex(randomblob(2)), 2)"
    " || hex(randomblob(6)))"
)
SQLITE_NOW = "strftime('%Y-%m-%d %H:%M:%f000', 'now')"
CAPTURED = "NEW.type = 'card_purchase' AND NEW.status = 'completed' AND NEW.captured_at IS NULL"


def _in(values: tuple[str, ...]) -> str:
    return ", ".join(f"'{value}'" for value in values)


def _create_disputes() -> None:
    op.create_table(
        "disputes",
        sa.Column("uuid", sa.Uuid(), nullable=False),
        sa.Column("user_uuid", sa.Uuid(), nullable=False),
        sa.Column("transaction_uuid", sa.Uuid(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("reason", sa.String(24), nullable=False),
        sa.Column("explanation", sa.String(2000), nullable=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("evidence_attachment_uuids", sa.Text(), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("credit_transaction_uuid", sa.Uuid(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("uuid", name="pk_disputes"),
        sa.ForeignKeyConstraint(["user_uuid"], ["users.uuid"], name="fk_disputes_user_uuid_users"),
        sa.ForeignKeyConstraint(
            ["transaction_uuid"],
            ["transactions.uuid"],
            name="fk_disputes_transaction_uuid_transactions",
        ),
        sa.ForeignKeyConstraint(
            ["credit_transaction_uuid"],
            ["transactions.uuid"],
            name="fk_disputes_credit_transaction_uuid_transactions",
        ),
        sa.UniqueConstraint("credit_transaction_uuid", name="uq_disputes_credit_transaction_uuid"),
        sa.CheckConstraint("amount > 0", name="ck_disputes_amount_positive"),
        sa.CheckConstraint("status IN ('open', 'won', 'lost')", name="ck_disputes_status"),
        sa.CheckConstraint(f"reason IN ({_in(REASONS)})", name="ck_disputes_reason"),
        sa.CheckConstraint(
            "(status = 'open') = (resolved_at IS NULL)", name="ck_disputes_resolved_when_closed"
        ),
    )
    op.create_index("ix_disputes_user_created", "disputes", ["user_uuid", "created_at", "uuid"])
    op.create_index("ix_disputes_transaction_uuid", "disputes", ["transaction_uuid"])
    op.create_index(
        "ux_disputes_open_transaction",
        "disputes",
        ["transaction_uuid"],
        unique=True,
        postgresql_where=OPEN,
        sqlite_where=OPEN,
    )


def _type_rule(postgres: bool) -> None:
    expression = f"{{r}}type IN ({_in(TYPES)})"
    if postgres:
        op.execute("ALTER TABLE transactions DROP CONSTRAINT IF EXISTS ck_transactions_type")
        op.execute(
            "ALTER TABLE transactions ADD CONSTRAINT ck_transactions_type"
            f" CHECK ({expression.format(r='')})"
        )
        return
    for event in ("INSERT", "UPDATE"):
        trigger = f"ck_transactions_type_{event.lower()}"
        op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        op.execute(
            f"CREATE TRIGGER {trigger} BEFORE {event} ON transactions"
            f" WHEN NOT ({expression.format(r='NEW.')})"
            " BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: ck_transactions_type'); END"
        )


def _postgresql_triggers() -> None:
    op.execute(
        f"""
        CREATE FUNCTION mark_captured() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF {CAPTURED} THEN
                NEW.captured_at := NEW.updated_at;
            END IF;
            RETURN NEW;
        END $$
        """
    )
    op.execute(
        "CREATE TRIGGER transactions_captured BEFORE INSERT OR UPDATE OF status ON transactions"
        " FOR EACH ROW EXECUTE FUNCTION mark_captured()"
    )
    for name, timing, type_, watched in EVENTS:
        of = f"OF {', '.join(watched)}" if watched else ""
        when = (
            "WHEN (" + " OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in watched) + ")"
            if watched
            else ""
        )
        op.execute(
            f"CREATE TRIGGER {name} AFTER {timing} {of} ON disputes FOR EACH ROW {when} "
            f"EXECUTE FUNCTION record_event('{type_}', 'dispute')"
        )


def _sqlite_triggers() -> None:
    for event in ("INSERT", "UPDATE OF status"):
        op.execute(
            f"CREATE TRIGGER transactions_captured_{event.split()[0].lower()} AFTER {event}"
            f" ON transactions FOR EACH ROW WHEN {CAPTURED} BEGIN"
            " UPDATE transactions SET captured_at = NEW.updated_at WHERE uuid = NEW.uuid; END"
        )
    for name, timing, type_, watched in EVENTS:
        when = "WHEN " + " OR ".join(f"OLD.{c} IS NOT NEW.{c}" for c in watched) if watched else ""
        op.execute(
            f"CREATE TRIGGER {name} AFTER {timing} ON disputes FOR EACH ROW {when} BEGIN "
            "INSERT INTO events (uuid, type, user_uuid, object_type, object_uuid, created_at) "
            f"VALUES ({SQLITE_UUID4}, '{type_}', NEW.user_uuid, 'dispute', NEW.uuid, "
            f"{SQLITE_NOW}); END"
        )


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    op.add_column("transactions", sa.Column("captured_at", sa.DateTime(timezone=True)))
    op.execute(
        "UPDATE transactions SET captured_at = updated_at"
        " WHERE type = 'card_purchase' AND status IN ('completed', 'refunded')"
    )
    _type_rule(postgres)
    op.create_index(
        "ux_transactions_dispute_credit",
        "transactions",
        ["parent_uuid"],
        unique=True,
        postgresql_where=CREDIT,
        sqlite_where=CREDIT,
    )
    _create_disputes()
    if postgres:
        _postgresql_triggers()
    else:
        _sqlite_triggers()
    sync_catalogue(op.get_bind())


def downgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    names = [name for name, *_ in EVENTS]
    if postgres:
        for name in names:
            op.execute(f"DROP TRIGGER {name} ON disputes")
        op.execute("DROP TRIGGER transactions_captured ON transactions")
        op.execute("DROP FUNCTION mark_captured()")
    else:
        for name in [*names, "transactions_captured_insert", "transactions_captured_update"]:
            op.execute(f"DROP TRIGGER {name}")
    op.drop_table("disputes")
    op.drop_index("ux_transactions_dispute_credit", table_name="transactions")
    op.drop_column("transactions", "captured_at")
