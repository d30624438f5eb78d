"""Transactions as the user sees them; their money is in the ledger's entries."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, Index, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, Timestamps, UuidPk


class Transaction(UuidPk, Timestamps, Base):
    __tablename__ = "transactions"
    __table_args__ = (
        Index("ix_transactions_user_created", "user_uuid", "created_at", "uuid"),
        # covers a spending window's sum (transactions/control_checks.py) as well as the card's
        # pages
        Index(
            "ix_transactions_card_created",
            *("card_uuid", "created_at", "uuid", "type", "status", "amount", "refunded_amount"),
        ),
        Index("ix_transactions_account_created", "account_uuid", "created_at", "uuid"),
        # every user's, newest first: the operator's read-back (migration 20261127_39)
        Index("ix_transactions_created", "created_at", "uuid"),
        # a clearing file's presentment finds its authorization by card and approval code
        Index("ix_transactions_card_auth_code", "card_uuid", "auth_code"),
        # the expiry sweep's candidates: pending holds by their deadline
        Index("ix_transactions_hold_expires", "status", "hold_expires_at"),
        # the pair's last foreign-currency authorization: a new rate may not predate it
        # (docs/operations.md#your-own-catalogue, migration 20261127_44)
        Index(
            "ix_transactions_fx_pair",
            "merchant_currency",
            "currency",
            "created_at",
            postgresql_where=text("merchant_currency IS NOT NULL"),
            sqlite_where=text("merchant_currency IS NOT NULL"),
        ),
        # a purchase is credited by a dispute at most once (migration 20261123_21)
        Index(
            "ux_transactions_dispute_credit",
            "parent_uuid",
            unique=True,
            postgresql_where=text("type = 'dispute_credit'"),
            sqlite_where=text("type = 'dispute_credit'"),
        ),
    )

    # on PostgreSQL user, account and card are checked by `count_inserted()` (an insert) and
    # `check_holders()` (an update) in place of these keys, and `keep_holder()` keeps a user,
    # account or card a transaction names (migration 20261128_04)
    user_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.uuid"))
    account_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("accounts.uuid"))
    card_uuid: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("cards.uuid"))
    type: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    direction: Mapped[str] = mapped_column(String(8), doc="debit | credit, for the holder")
    amount: Mapped[int] = mapped_column(
        BigInteger,
        doc="minor units, positive; a purchase's: what the card pays for it (held + captured)",
    )
    authorized_amount: Mapped[int] = mapped_column(
        BigInteger, default=0, doc="a purchase's authorization plus its increments (minor units)"
    )
    captured_amount: Mapped[int] = mapped_column(
        BigInteger, default=0, doc="what the purchase's captures moved to the merchant so far"
    )
    merchant_amount: Mapped[int | None] = mapped_column(
        BigInteger, doc="a foreign-currency purchase: what the merchant charged, its minor units"
    )
    merchant_captured_amount: Mapped[int | None] = mapped_column(
        BigInteger,
        doc="a foreign-currency purchase: what its captures took so far, the merchant's minor"
        " units (migration 20261124_23)",
    )
    merchant_currency: Mapped[str | None] = mapped_column(String(3))
    rate: Mapped[str | None] = mapped_column(
        String(32), doc="merchant currency → card currency, a decimal as text"
    )
    hold_expires_at: Mapped[datetime | None] = mapped_column(
        doc="a purchase's hold is reversed by the sweep after this instant"
    )
    currency: Mapped[str] = mapped_column(String(3))
    fee: Mapped[int] = mapped_column(BigInteger, default=0, doc="minor units charged with it")
    refunded_amount: Mapped[int] = mapped_column(BigInteger, default=0)
    merchant_name: Mapped[str | None] = mapped_column(String(120))
    merchant_mcc: Mapped[str | None] = mapped_column(String(4))
    merchant_country: Mapped[str | None] = mapped_column(String(2))
    merchant_city: Mapped[str | None] = mapped_column(String(120))
    tag_slug: Mapped[str | None] = mapped_column(
        ForeignKey("transaction_tags.slug"),
        doc="a catalogue tag; on PostgreSQL checked by `count_inserted()` instead of this key"
        " (no lock on the shared tag row: migration 20261127_52)",
    )
    error_slug: Mapped[str | None] = mapped_column(String(64))
    flagged: Mapped[bool] = mapped_column(default=False, doc="restricted merchant tag")
    description: Mapped[str | None] = mapped_column(String(255))
    parent_uuid: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("transactions.uuid"), doc="the purchase a refund belongs to"
    )
    decision: Mapped[str | None] = mapped_column(
        String(16), doc="who decided an authorization: rules | endpoint | timeout | ..."
    )
    captured_at: Mapped[datetime | None] = mapped_column(
        doc="when a purchase became completed (set by the database, migration 20261123_21)"
    )
    channel: Mapped[str] = mapped_column(
        String(16), default="sandbox", doc="where it entered: sandbox | iso8583 | clearing"
    )
    network: Mapped[str | None] = mapped_column(
        Text, doc="JSON {stan, rrn, acquirer_id, terminal_id, merchant_id, auth_code} (iso8583)"
    )
    token: Mapped[str | None] = mapped_column(
        Text, doc="JSON {uuid, wallet, last4} of the network token that paid (20261126_33)"
    )
    stand_in: Mapped[bool] = mapped_column(
        default=False, doc="approved by the network on the issuer's behalf (an 0120 advice)"
    )
    auth_code: Mapped[str | None] = mapped_column(
        String(6), doc="the approval code given (ISO 8583 field 38), as `network.auth_code`"
    )
    clearing: Mapped[str | None] = mapped_column(
        Text, doc="JSON {file_uuid, message_number, arn} of the clearing record that booked it"
    )
    shortfall: Mapped[int] = mapped_column(
        BigInteger, default=0, doc="a stand-in's amount beyond the card's balance (receivable)"
    )
    receipt_attachment_uuid: Mapped[uuid.UUID | None] = mapped_column(
        doc="the receipt the holder linked (an attachment of theirs; 20261126_34)"
    )
