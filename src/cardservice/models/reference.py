"""Reference data shipped in the catalogue and loaded by migration."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String, text
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, BigId, utcnow


class DictionaryEntry(Base):
    """Small fixed vocabularies: transaction statuses and errors, account statuses and types."""

    __tablename__ = "dictionary_entries"

    kind: Mapped[str] = mapped_column(String(32), primary_key=True)
    slug: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    description: Mapped[str] = mapped_column(String(500))
    position: Mapped[int] = mapped_column(Integer)


class TransactionTag(Base):
    __tablename__ = "transaction_tags"
    __table_args__ = (
        Index("ix_transaction_tags_popularity", text("transactions_count DESC"), "name"),
    )

    slug: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(120), unique=True)
    category: Mapped[str] = mapped_column(String(32))
    restriction: Mapped[str | None] = mapped_column(String(16), doc="blocked | restricted")
    hold_days: Mapped[int] = mapped_column(
        Integer, server_default="7", doc="days a pending hold of this tag lives (the sweep)"
    )
    reason: Mapped[str | None] = mapped_column(String(500))
    transactions_count: Mapped[int] = mapped_column(
        BigInteger,
        default=0,
        doc="transactions carrying the tag, as far as the tag counter has added them up "
        "(dictionaries.tag_counts); the rest wait in tag_counts_waiting",
    )


class TagCountWaiting(Base):
    """A tagged transaction whose count waits for the tag counter (dictionaries.tag_counts):
    written by the trigger on `transactions`, deleted as it is added to its tag."""

    __tablename__ = "tag_counts_waiting"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    tag_slug: Mapped[str] = mapped_column(String(64))


class FeeRate(Base):
    """A fee of a plan. `value` is minor units (fixed) or hundredths of a percent (percent)."""

    __tablename__ = "fee_rates"

    plan: Mapped[str] = mapped_column(String(32), primary_key=True)
    slug: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    kind: Mapped[str] = mapped_column(String(16))
    value: Mapped[int] = mapped_column(BigInteger)
    position: Mapped[int] = mapped_column(Integer, default=0)


class FxRate(Base):
    """A conversion rate of the catalogue: 1 `base` = `rate` `quote` (a merchant charging in
    `base` on a card holding `quote`). `rate` is a decimal kept as text (exact on both
    databases); `set_on` the date it was set."""

    __tablename__ = "fx_rates"

    base: Mapped[str] = mapped_column(String(3), primary_key=True)
    quote: Mapped[str] = mapped_column(String(3), primary_key=True)
    rate: Mapped[str] = mapped_column(String(32))
    set_on: Mapped[str] = mapped_column(String(10), doc="ISO date")


class FxRateHistory(Base):
    """A rate the operator set (docs/operations.md#your-own-catalogue): 1 `base` = `rate`
    `quote` from `effective_at` on, until the pair's next rate takes effect. A pair with none
    in force converts at the catalogue's `fx_rates` row. Rows are never changed or deleted:
    an authorization's rate is the one in force at its time."""

    __tablename__ = "fx_rate_history"
    __table_args__ = (Index("ix_fx_rate_history_pair", "base", "quote", "effective_at"),)

    uuid: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    base: Mapped[str] = mapped_column(String(3))
    quote: Mapped[str] = mapped_column(String(3))
    rate: Mapped[str] = mapped_column(String(32), doc="a decimal kept as text (exact)")
    effective_at: Mapped[datetime] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class UserFeeOverride(Base):
    """A per-user fee that replaces the default plan's fee of the same slug."""

    __tablename__ = "user_fee_overrides"

    user_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.uuid"), primary_key=True)
    slug: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    value: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Bin(Base):
    __tablename__ = "bins"

    uuid: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    bin: Mapped[str] = mapped_column(String(8), unique=True)
    brand: Mapped[str] = mapped_column(String(16))
    currency: Mapped[str] = mapped_column(String(3))
    status: Mapped[str] = mapped_column(String(16), doc="available | unavailable")
    card_price: Mapped[int | None] = mapped_column(
        BigInteger,
        doc="the price of a card on this BIN (minor units of its currency), the `card_issue`"
        " fee of its buyers; NULL: the fee schedule's",
    )


class PaymentMethod(Base):
    __tablename__ = "payment_methods"

    slug: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    position: Mapped[int] = mapped_column(Integer)


class PaymentCurrency(Base):
    """Amounts are exact decimal strings: crypto currencies carry up to 18 decimals."""

    __tablename__ = "payment_currencies"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    method_slug: Mapped[str] = mapped_column(ForeignKey("payment_methods.slug"), index=True)
    code: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(120))
    network: Mapped[str | None] = mapped_column(String(32))
    decimals: Mapped[int] = mapped_column(Integer)
    min_amount: Mapped[str] = mapped_column(String(48))
    max_amount: Mapped[str] = mapped_column(String(48))
    fee_percent: Mapped[str] = mapped_column(String(16))
    position: Mapped[int] = mapped_column(Integer)
