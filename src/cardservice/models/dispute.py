"""Disputes of completed card purchases (docs/transactions.md#disputes) and their network
side (docs/disputes.md): open → chargeback_sent → (representment_received → pre_arbitration →)
won | lost, or withdrawn.

Two rules are the database's own (migrations 20261123_21, 20261127_50), so they hold under
any concurrency: at most one active dispute per transaction (a unique partial index over the
statuses before an outcome), and at most one `dispute_credit` per purchase (a unique
partial index on `transactions.parent_uuid`).
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
ACTIVE_STATUSES = ("open", "chargeback_sent", "representment_received", "pre_arbitration")
DECIDED_STATUSES = ("won", "lost", "withdrawn")
DISPUTE_STATUSES = (*ACTIVE_STATUSES, *DECIDED_STATUSES)


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
            postgresql_where=text(f"status IN ({_in(ACTIVE_STATUSES)})"),
            sqlite_where=text(f"status IN ({_in(ACTIVE_STATUSES)})"),
        ),
        Index("ix_disputes_arn", "arn"),
        Index("ix_disputes_to_send", "to_send"),
        Index("ix_disputes_status_deadline", "status", "deadline_at"),
        CheckConstraint("amount > 0", name="amount_positive"),
        CheckConstraint(f"status IN ({_in(DISPUTE_STATUSES)})", name="status"),
        CheckConstraint(f"reason IN ({_in(DISPUTE_REASONS)})", name="reason"),
        CheckConstraint(
            f"(status IN ({_in(DECIDED_STATUSES)})) = (resolved_at IS NOT NULL)",
            name="resolved_when_closed",
        ),
    )

    user_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.uuid"))
    transaction_uuid: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("transactions.uuid"), doc="the disputed card purchase"
    )
    amount: Mapped[int] = mapped_column(BigInteger, doc="minor units disputed, positive")
    currency: Mapped[str] = mapped_column(String(3))
    reason: Mapped[str] = mapped_column(String(24))
    explanation: Mapped[str | None] = mapped_column(String(2000))
    status: Mapped[str] = mapped_column(String(24), default="open")
    evidence_attachment_uuids: Mapped[str] = mapped_column(
        Text, doc="JSON array of the caller's attachment uuids"
    )
    resolved_at: Mapped[datetime | None]
    credit_transaction_uuid: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("transactions.uuid"), unique=True, doc="the dispute_credit of a won dispute"
    )
    arn: Mapped[str | None] = mapped_column(
        String(23), doc="DE 31 of the disputed purchase's presentment (its ARN)"
    )
    to_send: Mapped[str | None] = mapped_column(
        String(3), doc="DE 24 of the 1442 the next outgoing file carries: 450 | 453 | 451"
    )
    deadline_at: Mapped[datetime | None] = mapped_column(doc="when the next step is due")
    chargeback: Mapped[str | None] = mapped_column(
        Text, doc="JSON {file_id, message_number, sent_at} of the 1442 sent"
    )
    representment: Mapped[str | None] = mapped_column(
        Text, doc="JSON {file_id, message_number, amount, received_at, message} of the 1240"
    )
    pre_arbitration: Mapped[str | None] = mapped_column(
        Text, doc="JSON {file_id, message_number, sent_at} of the 1442 451 sent"
    )
    history: Mapped[str] = mapped_column(Text, default="[]", doc="JSON [{status, at}]")
    provisional: Mapped[int] = mapped_column(
        BigInteger, default=0, doc="minor units credited to the card ahead of the outcome"
    )
    claimed: Mapped[int] = mapped_column(
        BigInteger, default=0, doc="minor units claimed from the network and not given back"
    )
