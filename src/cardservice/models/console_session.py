"""The operator console's sign-ins (docs/operations.md#the-operator-console): a one-time link
from `cardservice operator console-link`, spent once within 15 minutes for a 12-hour session
kept in an HttpOnly cookie. Only SHA-256 hashes of the link's and the session's secrets are
stored."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, UuidPk, utcnow


class ConsoleSession(UuidPk, Base):
    __tablename__ = "console_sessions"

    link_hash: Mapped[str] = mapped_column(String(64), unique=True)
    link_expires_at: Mapped[datetime] = mapped_column(doc="a link is short-lived")
    signed_in_at: Mapped[datetime | None] = mapped_column(doc="the link's one use")
    session_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    session_expires_at: Mapped[datetime | None]
    ended_at: Mapped[datetime | None] = mapped_column(doc="signed out")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
