"""The audit trail: who did what to which object, when, under which request (PCI DSS 10.2).

Append-only: rows are inserted by `cardservice.audit.repository.record_audit` in the unit of
the action they describe (no action without its row), never updated. No foreign keys: the
trail outlives what it names. It never holds a secret: no card number, CVV2, code or token.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from sqlalchemy import Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, BigId


class AuditEntry(Base):
    __tablename__ = "audit_log"
    __table_args__ = (
        Index("ix_audit_log_object", "object_type", "object_uuid", "action", "created_at"),
        Index("ix_audit_log_actor", "actor_type", "actor_id", "created_at"),
        Index("ix_audit_log_created", "created_at", "id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    uuid: Mapped[UUID] = mapped_column(unique=True)
    created_at: Mapped[datetime]
    actor_type: Mapped[str] = mapped_column(String(32), doc="user, operator_key, system, …")
    actor_id: Mapped[str | None] = mapped_column(
        String(64), doc="the actor's uuid, or an operator key's id; NULL for the system"
    )
    action: Mapped[str] = mapped_column(String(64), doc="card.reveal, operator.user_update, …")
    object_type: Mapped[str] = mapped_column(String(32), doc="card, user, account, …")
    object_uuid: Mapped[UUID | None]
    request_id: Mapped[str | None] = mapped_column(String(64), doc="the X-Request-ID")
    details: Mapped[str | None] = mapped_column(
        Text, doc="JSON object of non-secret particulars (never a number, CVV2 or code)"
    )
