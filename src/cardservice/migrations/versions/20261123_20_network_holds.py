"""Authorizations as networks send them (docs/transactions.md#holds-captures-increments-expiry):
holds, captures, expiry.

* `transactions.authorized_amount` (the authorization plus its increments),
  `captured_amount` (what captures moved to the merchant) and `hold_expires_at` (when the
  sweep reverses a pending hold), indexed for the sweep by status and deadline;
* `transaction_tags.hold_days` (7 by default, 31 for `travel` and `lodging`; the catalogue's
  `hold_days`), with the hotel tags moved to the new `lodging` category;
* a held amount now sits in the `holds` book until it is captured (to `merchants`) or
  released (back to the card): the purchases pending at upgrade had theirs in `merchants`,
  so one entry per currency moves them to `holds`;
* foreign currency: `fx_rates` (the catalogue's rate table: base, quote, rate as decimal
  text, the date it was set), the `card_fx` percent fee, and on a transaction
  `merchant_amount`, `merchant_currency`, `rate`;
* `transaction.updated` also fires when a purchase's amount or captured amount changes
  (an increment, a capture that leaves the purchase pending).

Existing purchases: authorized = amount; captured = amount once settled; a pending one
expires 7 days after its creation.

Revision ID: 20261123_20
Revises: 20261123_16
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from cardservice.catalogue.loader import sync_catalogue

revision = "20261123_20"
down_revision = "20261123_16"
branch_labels = None
depends_on = None

SQLITE_UUID4 = (
    "lower(hex(randomblob(6)) || '4' || substr(hex(randomblob(2)), 2)"
    " || substr('89ab', 1 + abs(random()) % 4, 1) || substr(hex(randomblob(2)), 2)"
    " || hex(randomblob(6)))"
)
SQLITE_NOW = "strftime('%Y-%m-%d %H:%M:%f000', 'now')"
BEFORE = ("status", "refunded_amount")
AFTER = ("status", "refunded_amount", "amount", "captured_amount")
TRIGGER = "transactions_event_updated"
PENDING = "type = 'card_purchase' AND status = 'pending'"


def _watch(columns: tuple[str, ...], postgres: bool) -> None:
    """(Re)create the `transaction.updated` trigger watching `columns` (as 20261123_15)."""
    if postgres:
        op.execute(f"DROP TRIGGER IF EXISTS {TRIGGER} ON transactions")
        changed = " OR ".join(f"OLD.{c}::text IS DISTINCT FROM NEW.{c}::text" for c in columns)
        op.execute(
            f"CREATE TRIGGER {TRIGGER} AFTER UPDATE OF {', '.join(columns)} ON transactions"
            f" FOR EACH ROW WHEN ({changed})"
            " EXECUTE FUNCTION record_event('transaction.updated', 'transaction')"
        )
        return
    op.execute(f"DROP TRIGGER IF EXISTS {TRIGGER}")
    changed = " OR ".join(f"OLD.{c} IS NOT NEW.{c}" for c in columns)
    op.execute(
        f"CREATE TRIGGER {TRIGGER} AFTER UPDATE ON transactions FOR EACH ROW WHEN {changed}"
        " BEGIN INSERT INTO events (uuid, type, user_uuid, object_type, object_uuid, created_at)"
        f" VALUES ({SQLITE_UUID4}, 'transaction.updated', NEW.user_uuid, 'transaction',"
        f" NEW.uuid, {SQLITE_NOW}); END"
    )


def _move_pending_holds(postgres: bool, to_book: str, from_book: str) -> None:
    """One entry per currency: the pending purchases' held amounts between two books."""
    bind = op.get_bind()
    held = bind.execute(
        sa.text(
            "SELECT currency, sum(amount - captured_amount) FROM transactions"
            f" WHERE {PENDING} GROUP BY currency"
        )
    ).all()
    next_id = (
        "SELECT nextval(pg_get_serial_sequence('journal_entries', 'id'))"
        if postgres
        else "SELECT coalesce(max(id), 0) + 1 FROM journal_entries"
    )
    for currency, amount in held:
        entry = bind.execute(sa.text(next_id)).scalar_one()
        for book, signed in ((to_book, amount), (from_book, -amount)):
            bind.execute(
                sa.text(
                    "INSERT INTO postings (entry_id, system_book, currency, amount)"
                    " VALUES (:entry, :book, :currency, :amount)"
                ),
                {"entry": entry, "book": book, "currency": currency, "amount": signed},
            )
        bind.execute(
            sa.text(
                "INSERT INTO journal_entries (id, kind, created_at)"
                " VALUES (:entry, 'holds_reclassified', CURRENT_TIMESTAMP)"
            ),
            {"entry": entry},
        )


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    for column in ("authorized_amount", "captured_amount"):
        op.add_column(
            "transactions", sa.Column(column, sa.BigInteger(), nullable=False, server_default="0")
        )
    op.add_column("transactions", sa.Column("hold_expires_at", sa.DateTime(timezone=True)))
    op.add_column("transactions", sa.Column("merchant_amount", sa.BigInteger()))
    op.add_column("transactions", sa.Column("merchant_currency", sa.String(3)))
    op.add_column("transactions", sa.Column("rate", sa.String(32)))
    op.create_table(
        "fx_rates",
        sa.Column("base", sa.String(3), nullable=False),
        sa.Column("quote", sa.String(3), nullable=False),
        sa.Column("rate", sa.String(32), nullable=False),
        sa.Column("set_on", sa.String(10), nullable=False),
        sa.PrimaryKeyConstraint("base", "quote", name="pk_fx_rates"),
    )
    op.create_index("ix_transactions_hold_expires", "transactions", ["status", "hold_expires_at"])
    op.add_column(
        "transaction_tags", sa.Column("hold_days", sa.Integer(), nullable=False, server_default="7")
    )
    op.execute("UPDATE transactions SET authorized_amount = amount WHERE type = 'card_purchase'")
    op.execute(
        "UPDATE transactions SET captured_amount = amount"
        " WHERE type = 'card_purchase' AND status IN ('completed', 'refunded')"
    )
    week = (
        "created_at + interval '7 days'"
        if postgres
        else "strftime('%Y-%m-%d %H:%M:%f000', created_at, '+7 days')"
    )
    op.execute(f"UPDATE transactions SET hold_expires_at = {week} WHERE {PENDING}")
    _move_pending_holds(postgres, to_book="holds", from_book="merchants")
    _watch(AFTER, postgres)
    sync_catalogue(op.get_bind())


def downgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    _watch(BEFORE, postgres)
    _move_pending_holds(postgres, to_book="merchants", from_book="holds")
    op.drop_column("transaction_tags", "hold_days")
    op.drop_index("ix_transactions_hold_expires", table_name="transactions")
    op.drop_table("fx_rates")
    for column in (
        *("rate", "merchant_currency", "merchant_amount"),
        *("hold_expires_at", "captured_amount", "authorized_amount"),
    ):
        op.drop_column("transactions", column)
