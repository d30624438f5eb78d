"""Remembered responses of `POST /card/buy`, keyed by (user, external_id)."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, utcnow


class IdempotencyKey(Base):
    __tablename__ = "idempotency_keys"

    user_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.uuid"), primary_key=True)
    external_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    request_hash: Mapped[str] = mapped_column(String(64))
    status_code: Mapped[int] = mapped_column(Integer)
    response_body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
