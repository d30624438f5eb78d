"""The program operator's tables (docs/operations.md#running-a-program): keys, programs, top-ups,
and the external ids of operator credits and debits."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, CheckConstraint, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, Timestamps, UuidPk, utcnow


class OperatorKey(UuidPk, Base):
    """An operator API key (`csk_…`): only its SHA-256 hash is stored."""

    __tablename__ = "operator_keys"

    name: Mapped[str] = mapped_column(String(120))
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(String(16), index=True, doc="first chars, to name it")
    scopes: Mapped[str] = mapped_column(String(200), doc="comma-separated scopes")
    revoked_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Program(UuidPk, Timestamps, Base):
    """A card program: the BINs its users may buy from, controls on top of each card's, and
    how long its new cards are valid."""

    __tablename__ = "programs"
    __table_args__ = (CheckConstraint("card_validity_months BETWEEN 1 AND 120", name="validity"),)

    name: Mapped[str] = mapped_column(String(120))
    bin_uuids: Mapped[str] = mapped_column(Text, doc="JSON list of BIN uuids")
    spending_controls: Mapped[str | None] = mapped_column(
        Text, doc="JSON of the controls, amounts in minor units (as a card's); NULL = none"
    )
    card_validity_months: Mapped[int] = mapped_column(Integer, default=36)
    provisional_credit: Mapped[bool] = mapped_column(
        default=False, doc="a dispute credits the card when opened (docs/disputes.md)"
    )
    fee_overrides: Mapped[str | None] = mapped_column(
        Text,
        doc="JSON list of [slug, kind, value] (fee_rates' units) replacing the default plan's"
        " fees for the program's users; NULL = none",
    )


class Topup(UuidPk, Timestamps, Base):
    """A cardholder's request to fund an account by a payment method; the operator confirms
    what arrived (a `deposit` linked here), cancels it, or it expires unpaid."""

    __tablename__ = "topups"
    __table_args__ = (
        CheckConstraint(
            "status IN ('awaiting_payment', 'completed', 'cancelled', 'expired')", name="status"
        ),
        Index("ix_topups_user_created", "user_uuid", "created_at", "uuid"),
        Index("ix_topups_status_expires", "status", "expires_at"),
    )

    user_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.uuid"))
    account_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("accounts.uuid"))
    method_slug: Mapped[str] = mapped_column(ForeignKey("payment_methods.slug"))
    currency: Mapped[str] = mapped_column(String(16), doc="the payment currency's code")
    amount: Mapped[int] = mapped_column(BigInteger, doc="asked, minor units of `currency`")
    fee: Mapped[int] = mapped_column(BigInteger, doc="the method's percent fee of `amount`")
    rate: Mapped[str] = mapped_column(String(32), doc="payment currency → account currency")
    account_currency: Mapped[str] = mapped_column(String(3))
    credit_amount: Mapped[int] = mapped_column(
        BigInteger, doc="what the account gets for `amount`, its minor units"
    )
    reference: Mapped[str] = mapped_column(String(32), unique=True)
    status: Mapped[str] = mapped_column(String(24))
    expires_at: Mapped[datetime]
    received_amount: Mapped[int | None] = mapped_column(BigInteger)
    transaction_uuid: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("transactions.uuid"), unique=True, doc="the deposit that credited it"
    )


class OperatorRequest(Base):
    """An operator credit or debit by its `external_id`: the request's hash and the
    transaction it made (the primary key is the guard against a second one)."""

    __tablename__ = "operator_requests"

    external_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    request_hash: Mapped[str] = mapped_column(String(64))
    transaction_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("transactions.uuid"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
