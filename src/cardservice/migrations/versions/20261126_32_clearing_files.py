"""Clearing files (docs/network.md#clearing-files): the network's presentments, booked once each.

- `clearing_files`: one row per file ingested, keyed by the file id of its header (PDS 0105)
  with the SHA-256 of its bytes; `status` is `staging` while its presentments are read and
  checked, `booking` once the whole file was found good and its records are being booked,
  `booked` when its report (JSON) is final.
- `clearing_records`: one row per presentment of a file (1240 / DE 24 `200`), written while
  the file is staged, without the card number (its fingerprint only). `outcome` is NULL
  until the record is booked: the unit that moves its money writes it (a record is booked
  exactly once, whatever crashed before).
- `transactions.clearing`: JSON `{file_uuid, message_number, arn}` of the record that booked
  it; `transactions.auth_code`: the approval code (ISO 8583 field 38) a presentment names,
  indexed by card; `channel` gains `clearing` (a force post, a refund without a purchase).

Revision ID: 20261126_32
Revises: 20261126_31
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261126_32"
down_revision = "20261126_31"
branch_labels = None
depends_on = None

CHANNELS = "{r}channel IN ('sandbox', 'iso8583', 'clearing')"
CHANNELS_BEFORE = "{r}channel IN ('sandbox', 'iso8583')"
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _channel_check(expression: str) -> None:
    """Replace the check on `transactions.channel` (a constraint on PostgreSQL, a pair of
    triggers on SQLite, as 20261124_26 made it)."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE transactions DROP CONSTRAINT ck_transactions_channel")
        op.execute(
            "ALTER TABLE transactions ADD CONSTRAINT ck_transactions_channel"
            f" CHECK ({expression.format(r='')})"
        )
        return
    for event in ("INSERT", "UPDATE"):
        op.execute(f"DROP TRIGGER IF EXISTS ck_transactions_channel_{event.lower()}")
        op.execute(
            f"CREATE TRIGGER ck_transactions_channel_{event.lower()} BEFORE {event}"
            f" ON transactions WHEN NOT ({expression.format(r='NEW.')})"
            " BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed:"
            " ck_transactions_channel'); END"
        )


def _backfill_auth_codes() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "UPDATE transactions SET auth_code = network::json->>'auth_code'"
            " WHERE network IS NOT NULL AND network::json->>'auth_code' IS NOT NULL"
        )
        return
    op.execute(
        "UPDATE transactions SET auth_code = json_extract(network, '$.auth_code')"
        " WHERE network IS NOT NULL AND json_extract(network, '$.auth_code') IS NOT NULL"
    )


def upgrade() -> None:
    op.add_column("transactions", sa.Column("clearing", sa.Text()))
    op.add_column("transactions", sa.Column("auth_code", sa.String(6)))
    _backfill_auth_codes()
    op.create_index("ix_transactions_card_auth_code", "transactions", ["card_uuid", "auth_code"])
    _channel_check(CHANNELS)
    op.create_table(
        "clearing_files",
        sa.Column("uuid", sa.Uuid(), primary_key=True),
        sa.Column("file_id", sa.String(64), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("messages", sa.Integer(), nullable=False),
        sa.Column("ignored", sa.Integer(), nullable=False),
        sa.Column("report", sa.Text()),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("file_id", name="uq_clearing_files_file_id"),
        sa.CheckConstraint(
            "status IN ('staging', 'booking', 'booked')", name="ck_clearing_files_status"
        ),
    )
    op.create_index("ix_clearing_files_received", "clearing_files", ["received_at", "uuid"])
    op.create_table(
        "clearing_records",
        sa.Column("id", BIG_ID, primary_key=True),
        sa.Column("file_uuid", sa.Uuid(), sa.ForeignKey("clearing_files.uuid"), nullable=False),
        sa.Column("message_number", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("approval_code", sa.String(6)),
        sa.Column("arn", sa.String(23)),
        sa.Column("merchant_name", sa.String(255)),
        sa.Column("merchant_city", sa.String(255)),
        sa.Column("merchant_country", sa.String(3)),
        sa.Column("merchant_id", sa.String(15)),
        sa.Column("mcc", sa.String(4)),
        sa.Column("outcome", sa.String(24)),
        sa.Column("reason", sa.Text()),
        sa.Column("transaction_uuid", sa.Uuid(), sa.ForeignKey("transactions.uuid")),
        sa.Column("authorized", sa.BigInteger()),
        sa.Column("booked_at", sa.DateTime(timezone=True)),
        sa.UniqueConstraint("file_uuid", "message_number", name="uq_clearing_records_file_uuid"),
        sa.CheckConstraint("kind IN ('purchase', 'refund')", name="ck_clearing_records_kind"),
        sa.CheckConstraint("amount > 0", name="ck_clearing_records_amount"),
    )
    op.create_index("ix_clearing_records_arn", "clearing_records", ["arn"])


def downgrade() -> None:
    op.drop_index("ix_clearing_records_arn", table_name="clearing_records")
    op.drop_table("clearing_records")
    op.drop_index("ix_clearing_files_received", table_name="clearing_files")
    op.drop_table("clearing_files")
    # a file's force posts and credits stay in the books: they entered from the network
    op.execute("UPDATE transactions SET channel = 'iso8583' WHERE channel = 'clearing'")
    _channel_check(CHANNELS_BEFORE)
    op.drop_index("ix_transactions_card_auth_code", table_name="transactions")
    op.drop_column("transactions", "auth_code")
    op.drop_column("transactions", "clearing")
