"""A user's authorization decision endpoint (docs/controls.md#the-decision-endpoint): asked before
an approval."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, Timestamps


class AuthorizationEndpoint(Timestamps, Base):
    __tablename__ = "authorization_endpoints"
    __table_args__ = (
        CheckConstraint("timeout_ms BETWEEN 100 AND 3000", name="timeout_ms"),
        CheckConstraint("on_timeout IN ('approve', 'decline')", name="on_timeout"),
    )

    user_uuid: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("users.uuid", ondelete="CASCADE"), primary_key=True
    )
    url: Mapped[str] = mapped_column(String(2048))
    secret_ciphertext: Mapped[bytes] = mapped_column(
        LargeBinary, doc="Fernet token of the whsec_ signing secret"
    )
    timeout_ms: Mapped[int] = mapped_column(Integer)
    on_timeout: Mapped[str] = mapped_column(String(8), doc="approve | decline")
    consecutive_failures: Mapped[int] = mapped_column(
        Integer, default=0, doc="timeouts and errors in a row; a good answer resets it"
    )
    stand_in_until: Mapped[datetime | None] = mapped_column(
        doc="while in the future, authorizations take on_timeout without asking"
    )
