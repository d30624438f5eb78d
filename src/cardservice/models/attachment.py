"""Attachment metadata; the bytes live content-addressed in the blob store."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, UuidPk, utcnow


class Attachment(UuidPk, Base):
    __tablename__ = "attachments"

    user_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.uuid"), index=True)
    type: Mapped[str] = mapped_column(String(16))
    mime_type: Mapped[str] = mapped_column(String(64))
    size: Mapped[int] = mapped_column(BigInteger)
    sha256: Mapped[str] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
