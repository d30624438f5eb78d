"""One-time dashboard sign-in links: only the SHA-256 hash of the secret is stored."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, UuidPk, utcnow


class SignInLink(UuidPk, Base):
    __tablename__ = "sign_in_links"

    user_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.uuid"), index=True)
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    expires_at: Mapped[datetime] = mapped_column(doc="a link is short-lived")
    used_at: Mapped[datetime | None] = mapped_column(doc="set on first use; a link works once")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
