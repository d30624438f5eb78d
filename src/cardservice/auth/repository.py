"""The statements of the credentials' tables (api_tokens, mfa_codes); credentials.py holds
the rules. Only SHA-256 hashes of secrets reach these tables."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from cardservice.db.sql import Reader, Row, Tx, as_uuid, insert_sql

_INSERT_TOKEN = insert_sql(
    "api_tokens",
    ("uuid", "user_uuid", "name", "token_hash", "prefix", "expires_at", "created_at",
     "issued_by_key"),
)  # fmt: skip
_ISSUER = """
SELECT k.uuid, k.name, k.prefix FROM api_tokens t JOIN operator_keys k ON k.uuid = t.issued_by_key
WHERE t.uuid = $1"""
_REVOKE_TOKENS = """
UPDATE api_tokens SET revoked_at = $1 WHERE (prefix = $2 OR uuid = $3) AND revoked_at IS NULL
RETURNING uuid"""
_REVOKE_NAMED = """
UPDATE api_tokens SET revoked_at = $1
WHERE token_hash = $2 AND name = $3 AND revoked_at IS NULL
"""
_KEY_BY_HASH = (
    "SELECT uuid, user_uuid, expires_at, revoked_at FROM api_tokens WHERE token_hash = $1"
)
_INSERT_CODE = insert_sql(
    "mfa_codes", ("uuid", "user_uuid", "code_hash", "token_uuid", "expires_at", "created_at")
)
# Codes are issued one at a time per user: the user's row is the lock (users before codes).
_LOCK_USER = "SELECT uuid FROM users WHERE uuid = $1 FOR UPDATE"
_LIVE_CODES = """
SELECT uuid FROM mfa_codes WHERE user_uuid = $1 AND revoked_at IS NULL AND expires_at > $2
ORDER BY created_at DESC, uuid DESC"""
_REVOKE_CODE = "UPDATE mfa_codes SET revoked_at = $1 WHERE uuid = $2"
_REVOKE_MINTED_CODES = (
    "UPDATE mfa_codes SET revoked_at = $1 WHERE token_uuid = $2 AND revoked_at IS NULL"
)
_REVOKE_CODES_OF_USER = """
UPDATE mfa_codes SET revoked_at = $1 WHERE user_uuid = $2 AND revoked_at IS NULL
  AND expires_at > $1 RETURNING uuid"""
_USE_STEP_UP = """
UPDATE mfa_codes SET revoked_at = $3
WHERE code_hash = $1 AND user_uuid = $2 AND revoked_at IS NULL AND expires_at > $3
  AND (token_uuid IS NULL OR EXISTS (
       SELECT 1 FROM api_tokens t WHERE t.uuid = mfa_codes.token_uuid AND t.revoked_at IS NULL
       AND (t.expires_at IS NULL OR t.expires_at > $3)))
RETURNING uuid"""
_DEAD = "(expires_at < $1 OR revoked_at < $1)"  # dead since before the cutoff $1
_PRUNE_CODES_OF_USER = f"DELETE FROM mfa_codes WHERE user_uuid = $2 AND {_DEAD} RETURNING uuid"  # noqa: S608
_PRUNE_CODES = (
    f"DELETE FROM mfa_codes WHERE {_DEAD} OR token_uuid IN"  # noqa: S608
    f" (SELECT uuid FROM api_tokens WHERE {_DEAD}) RETURNING uuid"
)
_PRUNE_TOKENS = f"DELETE FROM api_tokens WHERE {_DEAD} RETURNING uuid"  # noqa: S608

BEARER_CALLER_SQL = """
SELECT u.uuid, u.team_uuid, u.role, t.expires_at, t.uuid AS token_uuid
FROM api_tokens t JOIN users u ON u.uuid = t.user_uuid
WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND u.status = 'active'
"""
# A suspended user's tokens and codes are refused (docs/operations.md#running-a-program).
# A code minted by a token lives only while that token does (not revoked, not expired).
MFA_CALLER_SQL = """
SELECT u.uuid, u.team_uuid, u.role, m.expires_at
FROM mfa_codes m JOIN users u ON u.uuid = m.user_uuid
LEFT JOIN api_tokens t ON t.uuid = m.token_uuid
WHERE m.code_hash = $1 AND m.revoked_at IS NULL AND m.expires_at > $2 AND u.status = 'active'
  AND (m.token_uuid IS NULL
       OR (t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > $2)))
"""


async def insert_token(
    tx: Tx,
    token_uuid: uuid.UUID,
    user_uuid: uuid.UUID,
    name: str,
    token_hash: str,
    prefix: str,
    expires_at: datetime | None,
    now: datetime,
    issued_by_key: uuid.UUID | None,
) -> None:
    await tx.execute(
        _INSERT_TOKEN, token_uuid, user_uuid, name, token_hash, prefix, expires_at, now,
        issued_by_key,
    )  # fmt: skip


async def issuer_of_token(reader: Reader | Tx, token_uuid: uuid.UUID) -> Row | None:
    """The operator key (uuid, name, prefix) that issued the token; None if none did."""
    return await reader.row(_ISSUER, token_uuid)


async def revoke_tokens(
    tx: Tx, now: datetime, prefix: str, token_uuid: uuid.UUID | None
) -> list[uuid.UUID]:
    """Revoke the live tokens with this visible prefix or id; their ids."""
    rows = await tx.rows(_REVOKE_TOKENS, now, prefix, token_uuid)
    return _uuids(rows)


async def revoke_named_token(tx: Tx, now: datetime, token_hash: str, name: str) -> None:
    """Revoke the live token with this hash if it carries `name`."""
    await tx.execute(_REVOKE_NAMED, now, token_hash, name)


async def token_by_hash(tx: Tx, token_hash: str) -> Row | None:
    """The token with this hash (uuid, user_uuid, expires_at, revoked_at), live or not."""
    return await tx.row(_KEY_BY_HASH, token_hash)


async def insert_code(
    tx: Tx,
    user_uuid: uuid.UUID,
    code_hash: str,
    token_uuid: uuid.UUID | None,
    expires_at: datetime,
    now: datetime,
) -> None:
    """A new MFA code, once the user's row is locked (codes of one user, one at a time)."""
    await tx.execute(_LOCK_USER, user_uuid)
    await tx.execute(_INSERT_CODE, uuid.uuid4(), user_uuid, code_hash, token_uuid, expires_at, now)


async def live_codes(tx: Tx, user_uuid: uuid.UUID, now: datetime) -> list[uuid.UUID]:
    """The user's live codes, newest first."""
    return _uuids(await tx.rows(_LIVE_CODES, user_uuid, now))


async def revoke_code(tx: Tx, now: datetime, code_uuid: uuid.UUID) -> None:
    await tx.execute(_REVOKE_CODE, now, code_uuid)


async def revoke_codes_of_token(tx: Tx, now: datetime, token_uuid: uuid.UUID) -> None:
    """Revoke the live codes the token minted."""
    await tx.execute(_REVOKE_MINTED_CODES, now, token_uuid)


async def revoke_codes_of_user(tx: Tx, now: datetime, user_uuid: uuid.UUID) -> int:
    """Revoke every live code of the user; how many."""
    return len(await tx.rows(_REVOKE_CODES_OF_USER, now, user_uuid))


async def use_step_up(tx: Tx, code_hash: str, user_uuid: uuid.UUID, now: datetime) -> bool:
    """Revoke the user's live code with this hash (its token alive) in one statement: True
    when there was one."""
    return bool(await tx.rows(_USE_STEP_UP, code_hash, user_uuid, now))


async def prune(tx: Tx, cutoff: datetime, user_uuid: uuid.UUID | None) -> int:
    """Delete the codes (only the user's, when given) and then the tokens dead since before
    `cutoff`, a token with every code it minted; how many rows went."""
    if user_uuid is not None:
        return len(await tx.rows(_PRUNE_CODES_OF_USER, cutoff, user_uuid))
    codes = await tx.rows(_PRUNE_CODES, cutoff)
    tokens = await tx.rows(_PRUNE_TOKENS, cutoff)
    return len(codes) + len(tokens)


async def bearer_caller(reader: Reader, token_hash: str) -> Row | None:
    """The active user of an unrevoked token (uuid, team_uuid, role, expires_at, token_uuid)."""
    return await reader.row(BEARER_CALLER_SQL, token_hash)


async def mfa_caller(reader: Reader, code_hash: str, now: datetime) -> Row | None:
    """The active user of a live code whose token is alive (uuid, team_uuid, role, expires_at)."""
    return await reader.row(MFA_CALLER_SQL, code_hash, now)


def _uuids(rows: Sequence[Row]) -> list[uuid.UUID]:
    return [u for row in rows if (u := as_uuid(row["uuid"])) is not None]
