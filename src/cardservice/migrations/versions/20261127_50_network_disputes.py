"""Disputes that reach the network (docs/disputes.md).

`disputes` gains the network's side of a dispute: the wider `status` (`chargeback_sent`,
`representment_received`, `pre_arbitration`, `withdrawn` beside `open`, `won`, `lost`), the
purchase's `arn`, what waits for the next outgoing file (`to_send`: DE 24 `450`, `453` or
`451`), `deadline_at`, the JSON of `chargeback`, `representment`, `pre_arbitration` and
`history`, and the money outstanding: `provisional` (credited to the card ahead of the
outcome) and `claimed` (claimed from the network). One dispute per purchase is active at a
time (the unique index covers every status before an outcome).

`clearing_outgoing`: the issuer's outgoing files, one per date, their bytes kept (the same
date again answers them). `clearing_records` takes second presentments (`kind` `second`,
DE 72 in `message`). `programs.provisional_credit`. The transaction types
`dispute_provisional_credit` and `dispute_provisional_reversal`.

SQLite's CHECKs are edited in place in the schema text (as 20261127_48 does): a rebuilt
table would lose its event triggers.

Revision ID: 20261127_50
Revises: 20261127_52
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261127_50"
down_revision = "20261127_52"
branch_labels = None
depends_on = None

OLD_STATUS = "status IN ('open', 'won', 'lost')"
NEW_STATUS = (
    "status IN ('open', 'chargeback_sent', 'representment_received', 'pre_arbitration',"
    " 'won', 'lost', 'withdrawn')"
)
OLD_RESOLVED = "(status = 'open') = (resolved_at IS NULL)"
NEW_RESOLVED = "(status IN ('won', 'lost', 'withdrawn')) = (resolved_at IS NOT NULL)"
ACTIVE = "status IN ('open', 'chargeback_sent', 'representment_received', 'pre_arbitration')"
OLD_KIND = "kind IN ('purchase', 'refund')"
NEW_KIND = "kind IN ('purchase', 'refund', 'second')"
TYPES = (
    "card_purchase", "card_refund", "card_issue", "card_topup", "auto_replenish", "fee",
    "deposit", "card_close", "dispute_credit", "withdrawal", "card_transfer",
)  # fmt: skip
NEW_TYPES = ("dispute_provisional_credit", "dispute_provisional_reversal")
NOW = sa.DateTime(timezone=True)


def _in(values: tuple[str, ...]) -> str:
    return ", ".join(f"'{value}'" for value in values)


def _postgres() -> bool:
    return bool(op.get_bind().dialect.name == "postgresql")


def _sqlite_check(table: str, old: str, new: str) -> None:
    op.execute("PRAGMA writable_schema = ON")
    op.execute(
        sa.text(
            "UPDATE sqlite_master SET sql = replace(sql, :old, :new)"
            " WHERE type = 'table' AND name = :table"
        ).bindparams(old=old, new=new, table=table)
    )
    version = op.get_bind().exec_driver_sql("PRAGMA schema_version").scalar_one()
    op.execute(f"PRAGMA schema_version = {int(version) + 1}")
    op.execute("PRAGMA writable_schema = OFF")


def _check(table: str, name: str, old: str, new: str) -> None:
    """Replace a CHECK (`name` as PostgreSQL holds it: the convention's prefix twice)."""
    if _postgres():
        op.drop_constraint(op.f(name), table, type_="check")
        op.create_check_constraint(op.f(name), table, new)
    else:
        _sqlite_check(table, old, new)


def _type_rule(types: tuple[str, ...]) -> None:
    expression = f"{{r}}type IN ({_in(types)})"
    if _postgres():
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


def _active_index(where: str) -> None:
    op.drop_index("ux_disputes_open_transaction", table_name="disputes")
    op.create_index(
        "ux_disputes_open_transaction",
        "disputes",
        ["transaction_uuid"],
        unique=True,
        postgresql_where=sa.text(where),
        sqlite_where=sa.text(where),
    )


def _widen_status() -> None:
    """PostgreSQL: `status` grows to 24 characters; its event trigger (20261123_21) watches the
    column, so it is dropped and made again around the change."""
    op.execute("DROP TRIGGER disputes_event_updated ON disputes")
    op.alter_column("disputes", "status", type_=sa.String(24))
    op.execute(
        "CREATE TRIGGER disputes_event_updated AFTER UPDATE OF status ON disputes FOR EACH ROW"
        " WHEN (OLD.status IS DISTINCT FROM NEW.status)"
        " EXECUTE FUNCTION record_event('dispute.updated', 'dispute')"
    )


def _disputes() -> None:
    if _postgres():
        _widen_status()
    _check("disputes", "ck_disputes_ck_disputes_status", OLD_STATUS, NEW_STATUS)
    _check("disputes", "ck_disputes_ck_disputes_resolved_when_closed", OLD_RESOLVED, NEW_RESOLVED)
    _active_index(ACTIVE)
    for column in (
        sa.Column("arn", sa.String(23), nullable=True),
        sa.Column("to_send", sa.String(3), nullable=True),
        sa.Column("deadline_at", NOW, nullable=True),
        sa.Column("chargeback", sa.Text(), nullable=True),
        sa.Column("representment", sa.Text(), nullable=True),
        sa.Column("pre_arbitration", sa.Text(), nullable=True),
        sa.Column("history", sa.Text(), nullable=False, server_default="[]"),
        sa.Column("provisional", sa.BigInteger(), nullable=False, server_default="0"),
        sa.Column("claimed", sa.BigInteger(), nullable=False, server_default="0"),
    ):
        op.add_column("disputes", column)
    op.create_index("ix_disputes_arn", "disputes", ["arn"])
    op.create_index("ix_disputes_to_send", "disputes", ["to_send"])
    op.create_index("ix_disputes_status_deadline", "disputes", ["status", "deadline_at"])


def upgrade() -> None:
    _disputes()
    op.create_table(
        "clearing_outgoing",
        sa.Column("uuid", sa.Uuid(), nullable=False),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("file_id", sa.String(64), nullable=False),
        sa.Column("messages", sa.Integer(), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("content_ciphertext", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", NOW, nullable=False),
        sa.PrimaryKeyConstraint("uuid", name="pk_clearing_outgoing"),
        sa.UniqueConstraint("date", name="uq_clearing_outgoing_date"),
    )
    op.add_column("clearing_records", sa.Column("message", sa.Text(), nullable=True))
    _check("clearing_records", "ck_clearing_records_ck_clearing_records_kind", OLD_KIND, NEW_KIND)
    op.add_column(
        "programs",
        sa.Column("provisional_credit", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    _type_rule((*TYPES, *NEW_TYPES))


def downgrade() -> None:
    op.execute(f"DELETE FROM transactions WHERE type IN ({_in(NEW_TYPES)})")
    _type_rule(TYPES)
    with op.batch_alter_table("programs") as batch:
        batch.drop_column("provisional_credit")
    op.execute("DELETE FROM clearing_records WHERE kind = 'second'")
    _check("clearing_records", "ck_clearing_records_ck_clearing_records_kind", NEW_KIND, OLD_KIND)
    with op.batch_alter_table("clearing_records") as batch:
        batch.drop_column("message")
    op.drop_table("clearing_outgoing")
    op.execute("UPDATE disputes SET status = 'lost' WHERE status = 'withdrawn'")
    op.execute("UPDATE disputes SET status = 'open' WHERE status NOT IN ('won', 'lost')")
    op.execute("UPDATE disputes SET resolved_at = NULL WHERE status = 'open'")
    op.drop_index("ix_disputes_status_deadline", table_name="disputes")
    op.drop_index("ix_disputes_to_send", table_name="disputes")
    op.drop_index("ix_disputes_arn", table_name="disputes")
    _active_index("status = 'open'")
    _check("disputes", "ck_disputes_ck_disputes_resolved_when_closed", NEW_RESOLVED, OLD_RESOLVED)
    _check("disputes", "ck_disputes_ck_disputes_status", NEW_STATUS, OLD_STATUS)
    with op.batch_alter_table("disputes") as batch:
        for column in (
            "claimed", "provisional", "history", "pre_arbitration", "representment",
            "chargeback", "deadline_at", "to_send", "arn",
        ):  # fmt: skip
            batch.drop_column(column)
