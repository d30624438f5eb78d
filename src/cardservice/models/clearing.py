"""Clearing files and their presentments (docs/network.md#clearing-files; migration 20261126_32)."""

from __future__ import annotations

import uuid
from datetime import date as date_
from datetime import datetime

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Date,
    ForeignKey,
    Index,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, BigId


class ClearingFile(Base):
    __tablename__ = "clearing_files"
    __table_args__ = (
        UniqueConstraint("file_id", name="uq_clearing_files_file_id"),
        CheckConstraint("status IN ('staging', 'booking', 'booked')", name="status"),
        Index("ix_clearing_files_received", "received_at", "uuid"),
    )

    uuid: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    file_id: Mapped[str] = mapped_column(String(64), doc="PDS 0105 of the file's header")
    sha256: Mapped[str] = mapped_column(String(64), doc="of the file's bytes, hex")
    status: Mapped[str] = mapped_column(
        String(16), doc="staging (read and checked) → booking (records booked) → booked"
    )
    messages: Mapped[int] = mapped_column(doc="every message read, header and trailer included")
    ignored: Mapped[int] = mapped_column(doc="messages neither header, trailer nor presentment")
    report: Mapped[str | None] = mapped_column(Text, doc="JSON of the final report")
    received_at: Mapped[datetime]


class ClearingRecord(Base):
    __tablename__ = "clearing_records"
    __table_args__ = (
        UniqueConstraint("file_uuid", "message_number", name="uq_clearing_records_file_uuid"),
        CheckConstraint(
            "kind IN ('purchase', 'refund', 'second', 'atm', 'accepted', 'declined')", name="kind"
        ),
        CheckConstraint("amount > 0", name="amount"),
        Index("ix_clearing_records_arn", "arn"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    file_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("clearing_files.uuid"))
    message_number: Mapped[int] = mapped_column(BigInteger, doc="DE 71")
    kind: Mapped[str] = mapped_column(
        String(8),
        doc="purchase (DE 3 00…) | atm (01…, cash) | refund (20…) | second (a second presentment)"
        " | accepted | declined (the acquirer's answer to a pre-arbitration)",
    )
    fingerprint: Mapped[str] = mapped_column(String(64), doc="of DE 2, the card number")
    amount: Mapped[int] = mapped_column(BigInteger, doc="DE 4, minor units of `currency`")
    currency: Mapped[str] = mapped_column(String(3), doc="DE 49 as its alphabetic code")
    approval_code: Mapped[str | None] = mapped_column(String(6), doc="DE 38")
    arn: Mapped[str | None] = mapped_column(String(23), doc="DE 31")
    merchant_name: Mapped[str | None] = mapped_column(String(255), doc="DE 43, first part")
    merchant_city: Mapped[str | None] = mapped_column(String(255), doc="DE 43, third part")
    merchant_country: Mapped[str | None] = mapped_column(String(3), doc="DE 43, last 3")
    merchant_id: Mapped[str | None] = mapped_column(String(15), doc="DE 42")
    mcc: Mapped[str | None] = mapped_column(String(4), doc="DE 26")
    message: Mapped[str | None] = mapped_column(Text, doc="DE 72 of a second presentment")
    outcome: Mapped[str | None] = mapped_column(
        String(24),
        doc="NULL until booked: matched | duplicate | amount_difference | force_posted |"
        " refund | unmatched",
    )
    reason: Mapped[str | None] = mapped_column(Text, doc="why an unmatched record was not booked")
    transaction_uuid: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("transactions.uuid"))
    authorized: Mapped[int | None] = mapped_column(
        BigInteger, doc="an amount difference's: what was captured before the presentment"
    )
    booked_at: Mapped[datetime | None]


class ClearingOutgoing(Base):
    """The issuer's outgoing file of a date (docs/disputes.md): written once, its bytes kept."""

    __tablename__ = "clearing_outgoing"
    __table_args__ = (UniqueConstraint("date", name="uq_clearing_outgoing_date"),)

    uuid: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    date: Mapped[date_] = mapped_column(Date)
    file_id: Mapped[str] = mapped_column(String(64), doc="PDS 0105 of the file's header")
    messages: Mapped[int] = mapped_column(doc="header and trailer included")
    sha256: Mapped[str] = mapped_column(String(64), doc="of the file's bytes, hex")
    content_ciphertext: Mapped[bytes] = mapped_column(
        LargeBinary, doc="the file's bytes under the card-data key (its 1442s carry card numbers)"
    )
    created_at: Mapped[datetime]
