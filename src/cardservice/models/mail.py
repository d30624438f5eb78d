"""Mail to people (docs/mail.md): each person's notification preferences, and the mail queue
the background loop sends from (migrations 20261127_46, 20261127_58)."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    ForeignKey,
    Index,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, BigId


class NotificationPreferences(Base):
    """A person's choices; no row: the defaults (mail/records.py)."""

    __tablename__ = "notification_preferences"

    user_uuid: Mapped[UUID] = mapped_column(ForeignKey("users.uuid"), primary_key=True)
    declined_payment: Mapped[bool]
    large_purchase: Mapped[bool]
    large_purchase_amount: Mapped[int | None] = mapped_column(
        BigInteger, doc="minor units, compared with a purchase in its own currency"
    )
    team_request_decided: Mapped[bool]
    receipt_reminder: Mapped[bool]
    request_to_decide: Mapped[bool]
    updated_at: Mapped[datetime]


class Mail(Base):
    """One mail to one person; `attempts` counts the attempts claimed so far."""

    __tablename__ = "mails"
    __table_args__ = (
        UniqueConstraint("event_id", "user_uuid", "kind", name="uq_mails_event_user_kind"),
        Index("ix_mails_user", "user_uuid", "created_at"),
        CheckConstraint("status IN ('pending', 'in_doubt', 'sent', 'failed')", name="status"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    uuid: Mapped[UUID] = mapped_column(unique=True, doc="the Message-ID's left part")
    kind: Mapped[str] = mapped_column(String(24))
    user_uuid: Mapped[UUID] = mapped_column(ForeignKey("users.uuid"), doc="the recipient")
    event_id: Mapped[int | None] = mapped_column(BigInteger, doc="the event it follows")
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(
        Text, doc="empty for a sign-in mail: its link is made as sent"
    )
    status: Mapped[str] = mapped_column(
        String(8),
        doc="pending | in_doubt (its DATA went out, no answer recorded: docs/mail.md#delivery)"
        " | sent | failed",
    )
    attempts: Mapped[int]
    next_attempt_at: Mapped[datetime]
    lease_until: Mapped[datetime | None]
    expires_at: Mapped[datetime | None] = mapped_column(doc="a sign-in mail's link's expiry")
    last_error: Mapped[str | None] = mapped_column(String(500))
    sent_at: Mapped[datetime | None]
    created_at: Mapped[datetime]
