"""Cards: the full number is only ever stored encrypted (Fernet) plus a keyed fingerprint."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, Timestamps, UuidPk


class Card(UuidPk, Timestamps, Base):
    __tablename__ = "cards"
    __table_args__ = (
        CheckConstraint("balance >= 0", name="balance_not_negative"),
        CheckConstraint("status IN ('active', 'frozen', 'closed', 'inactive')", name="status"),
        CheckConstraint(
            "card_type IN ('multi_use', 'single_use', 'merchant_locked')", name="card_type"
        ),
        Index("ix_cards_user_order", "user_uuid", "sort_order", "created_at", "uuid"),
        # an account's cards in their owner's order: its primary card is the first one
        Index("ix_cards_account_order", "account_uuid", "sort_order", "created_at", "uuid"),
    )

    user_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.uuid"))
    account_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("accounts.uuid"))
    bin_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("bins.uuid"))
    bin: Mapped[str] = mapped_column(String(8))
    brand: Mapped[str] = mapped_column(String(16))
    currency: Mapped[str] = mapped_column(String(3))
    pan_ciphertext: Mapped[bytes] = mapped_column(LargeBinary, doc="Fernet token of the number")
    pan_fingerprint: Mapped[str] = mapped_column(
        String(64), unique=True, doc="HMAC-SHA256 of the number: uniqueness without plaintext"
    )
    last4: Mapped[str] = mapped_column(String(4))
    expiry_month: Mapped[int]
    expiry_year: Mapped[int]
    balance: Mapped[int] = mapped_column(
        BigInteger, default=0, doc="minor units; always the sum of this card's postings"
    )
    status: Mapped[str] = mapped_column(String(16), default="active")
    is_favorite: Mapped[bool] = mapped_column(default=False)
    sort_order: Mapped[int] = mapped_column(BigInteger)
    description: Mapped[str | None] = mapped_column(String(255))
    external_id: Mapped[str | None] = mapped_column(String(128))
    holder_name: Mapped[str | None] = mapped_column(String(120))
    holder_address: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    auto_replenish_amount: Mapped[int | None] = mapped_column(BigInteger)
    auto_replenish_min_balance: Mapped[int | None] = mapped_column(BigInteger)
    spending_controls: Mapped[str | None] = mapped_column(
        Text, doc="JSON of the card's controls, amounts in minor units; NULL = none"
    )
    card_type: Mapped[str] = mapped_column(
        String(16), default="multi_use", doc="multi_use, single_use or merchant_locked"
    )
    locked_merchant: Mapped[str | None] = mapped_column(
        String(120), doc="a merchant_locked card's merchant (id or name); NULL until locked"
    )
    closed_reason: Mapped[str | None] = mapped_column(
        String(16), doc="a replaced card's reason: lost | stolen | damaged | expiring"
    )
    frozen_reason: Mapped[str | None] = mapped_column(
        String(16),
        doc="suspected_fraud (the card-testing guard), receipt_missing (a team's receipt"
        " policy, 20261126_34) or operator (an operator's freeze, 20261127_39); NULL otherwise",
    )
    verification_failures: Mapped[str | None] = mapped_column(
        Text,
        doc="JSON list of the times of the verification failures since the last approval"
        " or reset, the last 5 at most (transactions/card_testing/); NULL: none",
    )
    replaces: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("cards.uuid"))
    replaced_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("cards.uuid"))
    form: Mapped[str] = mapped_column(
        String(8), server_default="virtual", doc="virtual or physical (20261127_48)"
    )
    shipping: Mapped[dict[str, Any] | None] = mapped_column(
        JSON, doc="a physical card's delivery address; NULL for a virtual card"
    )
    fulfilment_status: Mapped[str | None] = mapped_column(
        String(16), doc="ordered, printed, shipped, delivered or returned; NULL when virtual"
    )
    fulfilment_carrier: Mapped[str | None] = mapped_column(String(64))
    fulfilment_tracking: Mapped[str | None] = mapped_column(String(64))
    fulfilment_updated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    pin_pvv: Mapped[str | None] = mapped_column(
        String(4), doc="Visa PVV of the holder's PIN (PVKI 1), never the PIN; NULL: no PIN"
    )
    pin_blocked: Mapped[bool] = mapped_column(
        Boolean, server_default="false", doc="the PIN is blocked after too many wrong tries"
    )
    pin_failures: Mapped[int] = mapped_column(
        Integer, server_default="0", doc="wrong PINs in a row since the last right one"
    )
    activated_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), doc="a physical card's activation by its holder; NULL: not yet"
    )


class PinNonce(Base):
    """A PIN envelope's nonce, kept (as its SHA-256) so that it is used once."""

    __tablename__ = "pin_nonces"

    nonce_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
