"""Issuing, revoking and checking credentials; only SHA-256 hashes are ever stored."""

from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from cardservice.errors import NotFound
from cardservice.models.base import utcnow
from cardservice.sql import Reader, Row, Tx, as_datetime, as_uuid

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
    tx: Tx, user_uuid: uuid.UUID, name: str, expires_in: timedelta | None
) -> tuple[uuid.UUID, str]:
    """Create a bearer token; the plaintext is returned once and never stored."""
    plaintext = TOKEN_PREFIX + secrets.token_urlsafe(TOKEN_BYTES)
    token_uuid, now = uuid.uuid4(), utcnow()
    await tx.execute(
        "INSERT INTO api_tokens (uuid, user_uuid, name, token_hash, prefix, expires_at,"
        " created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        token_uuid,
        user_uuid,
        name,
        digest(plaintext),
        plaintext[: len(TOKEN_PREFIX) + 8],
        now + expires_in if expires_in else None,
        now,
    )
    return token_uuid, plaintext


async def revoke_token(tx: Tx, prefix_or_id: str) -> int:
    """Revoke the tokens whose id or visible prefix matches; returns how many."""
    try:
        by_id: uuid.UUID | None = uuid.UUID(prefix_or_id)
    except ValueError:
        by_id = None
        if len(prefix_or_id) < len(TOKEN_PREFIX) + 8:
            raise NotFound("Give the token's id or at least its first 11 characters.") from None
    revoked = await tx.rows(
        "UPDATE api_tokens SET revoked_at = $3"
        " WHERE (prefix = $1 OR uuid = $2) AND revoked_at IS NULL RETURNING uuid",
        prefix_or_id[: len(TOKEN_PREFIX) + 8],
        by_id,
        utcnow(),
    )
    if not revoked:
        raise NotFound("No active token matches.")
    return len(revoked)


async def issue_mfa_code(tx: Tx, user_uuid: uuid.UUID, ttl: timedelta) -> tuple[str, datetime]:
    """Create a short-lived MFA code; the plaintext is returned once and never stored."""
    code = "".join(secrets.choice(MFA_ALPHABET) for _ in range(MFA_LENGTH))
    now = utcnow()
    await tx.execute(
        "INSERT INTO mfa_codes (uuid, user_uuid, code_hash, expires_at, created_at)"
        " VALUES ($1, $2, $3, $4, $5)",
        uuid.uuid4(),
        user_uuid,
        digest(code),
        now + ttl,
        now,
    )
    return code, now + ttl


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
