"""Bearer tokens and MFA codes: only their SHA-256 hashes are stored."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, UuidPk, utcnow


class ApiToken(UuidPk, Base):
    __tablename__ = "api_tokens"

    user_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.uuid"), index=True)
    name: Mapped[str] = mapped_column(String(120))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(String(16), index=True, doc="first chars, to name it")
    expires_at: Mapped[datetime | None] = mapped_column(index=True)
    revoked_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    issued_by_key: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("operator_keys.uuid"), doc="the operator key that issued it, if one did"
    )


class MfaCode(UuidPk, Base):
    __tablename__ = "mfa_codes"

    user_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.uuid"), index=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    token_uuid: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("api_tokens.uuid"), index=True, doc="the token that minted it, if any"
    )
    expires_at: Mapped[datetime] = mapped_column(index=True)
    revoked_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
