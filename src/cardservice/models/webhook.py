"""Webhook endpoints, their delivery queue and the log of every attempt."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, Integer, LargeBinary, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, BigId, Timestamps, UuidPk


class WebhookEndpoint(UuidPk, Timestamps, Base):
    __tablename__ = "webhook_endpoints"

    user_uuid: Mapped[UUID | None] = mapped_column(
        ForeignKey("users.uuid"), index=True, doc="NULL: the operator's, program-wide"
    )
    url: Mapped[str] = mapped_column(String(2048))
    description: Mapped[str | None] = mapped_column(String(255))
    event_types: Mapped[list[str] | None] = mapped_column(JSON, doc="NULL: every type")
    enabled: Mapped[bool] = mapped_column(default=True)
    secret_ciphertext: Mapped[bytes] = mapped_column(LargeBinary, doc="Fernet token")
    previous_secret_ciphertext: Mapped[bytes | None] = mapped_column(LargeBinary)
    previous_secret_expires_at: Mapped[datetime | None] = mapped_column(
        doc="the rotated-out secret signs beside the new one until then"
    )


class WebhookDelivery(Base):
    """One event queued for one endpoint; `attempts` counts the attempts claimed so far."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (Index("ix_webhook_deliveries_due", "status", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    endpoint_uuid: Mapped[UUID] = mapped_column(
        ForeignKey("webhook_endpoints.uuid", ondelete="CASCADE"), index=True
    )
    event_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("events.id"), index=True)
    status: Mapped[str] = mapped_column(String(16), doc="pending | delivered | failed")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime]
    lease_until: Mapped[datetime | None] = mapped_column(doc="a claimed attempt's deadline")
    created_at: Mapped[datetime]


class WebhookAttempt(Base):
    """One POST of an event to an endpoint and what came of it."""

    __tablename__ = "webhook_attempts"
    __table_args__ = (Index("ix_webhook_attempts_endpoint", "endpoint_uuid", "id"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    delivery_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("webhook_deliveries.id", ondelete="CASCADE"), index=True
    )
    endpoint_uuid: Mapped[UUID] = mapped_column(
        ForeignKey("webhook_endpoints.uuid", ondelete="CASCADE")
    )
    event_uuid: Mapped[UUID]
    attempt: Mapped[int] = mapped_column(Integer)
    status_code: Mapped[int | None] = mapped_column(Integer)
    error: Mapped[str | None] = mapped_column(Text)
    duration_ms: Mapped[int] = mapped_column(Integer)
    next_attempt_at: Mapped[datetime | None]
    created_at: Mapped[datetime]
