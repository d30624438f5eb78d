"""Issuing, revoking and checking credentials; only SHA-256 hashes are ever stored."""

from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import or_, update
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.errors import NotFound
from cardservice.models import ApiToken, MfaCode
from cardservice.models.base import utcnow
from cardservice.sql import Reader, Row, as_datetime, as_uuid

TOKEN_PREFIX = "cs_"  # noqa: S105 - a public marker, not a secret
TOKEN_BYTES = 32
MFA_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
MFA_LENGTH = 10  # 31**10 ≈ 2**49.5


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling, and with which scheme (`bearer` or `mfa`)."""

    user_uuid: uuid.UUID
    team_uuid: uuid.UUID | None
    role: str | None
    scheme: str
    credential_hash: str

    @property
    def is_team_owner(self) -> bool:
        return self.team_uuid is not None and self.role == "owner"


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


async def issue_token(
    session: AsyncSession, user_uuid: uuid.UUID, name: str, expires_in: timedelta | None
) -> tuple[ApiToken, str]:
    """Create a bearer token; the plaintext is returned once and never stored."""
    plaintext = TOKEN_PREFIX + secrets.token_urlsafe(TOKEN_BYTES)
    token = ApiToken(
        user_uuid=user_uuid,
        name=name,
        token_hash=digest(plaintext),
        prefix=plaintext[: len(TOKEN_PREFIX) + 8],
        expires_at=utcnow() + expires_in if expires_in else None,
    )
    session.add(token)
    await session.flush()
    return token, plaintext


async def revoke_token(session: AsyncSession, prefix_or_id: str) -> int:
    """Revoke the tokens whose id or visible prefix matches; returns how many."""
    conditions = [ApiToken.prefix == prefix_or_id[: len(TOKEN_PREFIX) + 8]]
    try:
        conditions.append(ApiToken.uuid == uuid.UUID(prefix_or_id))
    except ValueError:
        if len(prefix_or_id) < len(TOKEN_PREFIX) + 8:
            raise NotFound("Give the token's id or at least its first 11 characters.") from None
    result = await session.execute(
        update(ApiToken)
        .where(or_(*conditions), ApiToken.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
    count = int(result.rowcount)  # type: ignore[attr-defined]
    if count == 0:
        raise NotFound("No active token matches.")
    return count


async def issue_mfa_code(
    session: AsyncSession, user_uuid: uuid.UUID, ttl: timedelta
) -> tuple[str, datetime]:
    """Create a short-lived MFA code; the plaintext is returned once and never stored."""
    code = "".join(secrets.choice(MFA_ALPHABET) for _ in range(MFA_LENGTH))
    expires_at = utcnow() + ttl
    session.add(MfaCode(user_uuid=user_uuid, code_hash=digest(code), expires_at=expires_at))
    await session.flush()
    return code, expires_at


BEARER_CALLER_SQL = """
SELECT u.uuid, u.team_uuid, u.role, t.expires_at
FROM api_tokens t JOIN users u ON u.uuid = t.user_uuid
WHERE t.token_hash = $1 AND t.revoked_at IS NULL
"""
MFA_CALLER_SQL = """
SELECT u.uuid, u.team_uuid, u.role, m.expires_at
FROM mfa_codes m JOIN users u ON u.uuid = m.user_uuid
WHERE m.code_hash = $1 AND m.revoked_at IS NULL
"""


async def principal_for_token(reader: Reader, token: str) -> Principal | None:
    """The caller of a bearer token that exists, is not revoked and has not expired."""
    hashed = digest(token)
    row = await reader.row(BEARER_CALLER_SQL, hashed)
    if row is None:
        return None
    expires_at = as_datetime(row["expires_at"])
    if expires_at is not None and expires_at <= utcnow():
        return None
    return _principal(row, "bearer", hashed)


async def principal_for_mfa_code(reader: Reader, code: str) -> Principal | None:
    """The caller of an MFA code that exists, is not revoked and has not expired."""
    hashed = digest(code.strip().upper())
    row = await reader.row(MFA_CALLER_SQL, hashed)
    if row is None or as_datetime(row["expires_at"]) <= utcnow():  # type: ignore[operator]
        return None
    return _principal(row, "mfa", hashed)


def _principal(row: Row, scheme: str, hashed: str) -> Principal:
    return Principal(
        as_uuid(row["uuid"]),  # type: ignore[arg-type]
        as_uuid(row["team_uuid"]),
        row["role"],
        scheme,
        hashed,
    )
