"""Disputes of completed card purchases (docs/transactions.md#disputes): open → won | lost.

Two rules are the database's own (migration 20261123_21), so they hold under any
concurrency: at most one open dispute per transaction (a unique partial index), and at most
one `dispute_credit` per purchase (a unique partial index on `transactions.parent_uuid`).
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, CheckConstraint, ForeignKey, Index, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, Timestamps, UuidPk

DISPUTE_REASONS = (
    "fraudulent", "not_received", "duplicate", "canceled", "not_as_described", "other"
)  # fmt: skip
DISPUTE_STATUSES = ("open", "won", "lost")


def _in(values: tuple[str, ...]) -> str:
    return ", ".join(f"'{value}'" for value in values)


class Dispute(UuidPk, Timestamps, Base):
    __tablename__ = "disputes"
    __table_args__ = (
        Index("ix_disputes_user_created", "user_uuid", "created_at", "uuid"),
        Index("ix_disputes_transaction_uuid", "transaction_uuid"),
        Index(
            "ux_disputes_open_transaction",
            "transaction_uuid",
            unique=True,
            postgresql_where=text("status = 'open'"),
            sqlite_where=text("status = 'open'"),
        ),
        CheckConstraint("amount > 0", name="amount_positive"),
        CheckConstraint(f"status IN ({_in(DISPUTE_STATUSES)})", name="status"),
        CheckConstraint(f"reason IN ({_in(DISPUTE_REASONS)})", name="reason"),
        CheckConstraint("(status = 'open') = (resolved_at IS NULL)", name="resolved_when_closed"),
    )

    user_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.uuid"))
    transaction_uuid: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("transactions.uuid"), doc="the disputed card purchase"
    )
    amount: Mapped[int] = mapped_column(BigInteger, doc="minor units disputed, positive")
    currency: Mapped[str] = mapped_column(String(3))
    reason: Mapped[str] = mapped_column(String(24))
    explanation: Mapped[str | None] = mapped_column(String(2000))
    status: Mapped[str] = mapped_column(String(8), default="open")
    evidence_attachment_uuids: Mapped[str] = mapped_column(
        Text, doc="JSON array of the caller's attachment uuids"
    )
    resolved_at: Mapped[datetime | None]
    credit_transaction_uuid: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("transactions.uuid"), unique=True, doc="the dispute_credit of a won dispute"
    )
