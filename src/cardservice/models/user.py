"""Teams and users."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, UuidPk, utcnow


class Team(UuidPk, Base):
    __tablename__ = "teams"

    name: Mapped[str] = mapped_column(String(120), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    member_cards: Mapped[str] = mapped_column(
        String(8), default="direct", doc="direct: members buy cards; request: they ask the owner"
    )


class User(UuidPk, Base):
    __tablename__ = "users"
    __table_args__ = (
        CheckConstraint("role IS NULL OR role IN ('owner', 'member')", name="role"),
        CheckConstraint("status IN ('active', 'suspended')", name="status"),
    )

    email: Mapped[str] = mapped_column(String(254), unique=True)
    name: Mapped[str] = mapped_column(String(120))
    team_uuid: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("teams.uuid"), index=True)
    role: Mapped[str | None] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    status: Mapped[str] = mapped_column(
        String(16),
        default="active",
        doc="suspended: every credential refused (docs/operations.md#running-a-program)",
    )
    program_uuid: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("programs.uuid"))
