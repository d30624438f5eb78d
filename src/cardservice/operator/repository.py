"""Queries for the operator's view of users (`$n` SQL)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from cardservice.db.paging import Offset, paginate
from cardservice.db.sql import Reader, Row, Tx, as_uuid
from cardservice.models.base import utcnow
from cardservice.transactions import transaction_columns

USER_SELECT = """
SELECT u.uuid, u.email, u.name, t.name AS team, u.role, u.program_uuid, u.status, u.created_at
FROM users u LEFT JOIN teams t ON t.uuid = u.team_uuid"""
USER_ORDER = "ORDER BY u.created_at, u.uuid"


def _where(filters: dict[str, Any], args: list[Any]) -> str:
    clauses = ["1 = 1"]
    if "email" in filters:
        args.append(filters["email"].strip().lower())
        clauses.append(f"u.email = ${len(args)}")
    if "status" in filters:
        args.append(filters["status"])
        clauses.append(f"u.status = ${len(args)}")
    return " AND ".join(clauses)


async def page_of_users(
    reader: Reader, filters: dict[str, Any], offset: int, limit: int
) -> tuple[Sequence[Row], int]:
    """A page of users, oldest first, and how many match."""
    args: list[Any] = []
    where = _where(filters, args)  # fixed clauses; every value is a parameter
    return await paginate(
        reader,
        f"{USER_SELECT} WHERE {where} {USER_ORDER}",
        args,
        Offset(offset, limit),
        count=f"SELECT count(*) FROM users u WHERE {where}",  # noqa: S608
    )


async def user_row(reader: Reader | Tx, user_uuid: uuid.UUID) -> Row | None:
    return await reader.row(f"{USER_SELECT} WHERE u.uuid = $1", user_uuid)


async def lock_user(tx: Tx, user_uuid: uuid.UUID) -> Row | None:
    """The user's row (email, status), locked for a change."""
    return await tx.row(
        "SELECT uuid, email, status FROM users WHERE uuid = $1 FOR NO KEY UPDATE", user_uuid
    )


async def update_user(tx: Tx, user_uuid: uuid.UUID, columns: dict[str, Any]) -> None:
    names = list(columns)
    sets = ", ".join(f"{name} = ${i}" for i, name in enumerate(names, start=2))
    await tx.execute(
        f"UPDATE users SET {sets} WHERE uuid = $1",  # noqa: S608 - column names
        user_uuid,
        *columns.values(),
    )


async def program_exists(tx: Tx, program_uuid: uuid.UUID) -> bool:
    return await tx.value("SELECT uuid FROM programs WHERE uuid = $1", program_uuid) is not None


async def account_owner(tx: Tx, account_uuid: uuid.UUID) -> uuid.UUID | None:
    value = await tx.value("SELECT user_uuid FROM accounts WHERE uuid = $1", account_uuid)
    return None if value is None else uuid.UUID(str(value))


_REQUEST = "SELECT request_hash, transaction_uuid FROM operator_requests WHERE external_id = $1"
_REMEMBER = """
INSERT INTO operator_requests (external_id, request_hash, transaction_uuid, created_at)
VALUES ($1, $2, $3, $4)"""
_TRANSACTION = f"SELECT {transaction_columns('t')} FROM transactions t WHERE t.uuid = $1"  # noqa: S608


async def remembered_request(reader: Reader | Tx, external_id: str) -> Row | None:
    """The hash and transaction of an operator credit or debit with this external_id."""
    return await reader.row(_REQUEST, external_id)


async def remember_request(
    tx: Tx, external_id: str, request_hash: str, transaction_uuid: uuid.UUID
) -> None:
    """Its primary key refuses a second one: a concurrent repeat's unit fails here."""
    await tx.execute(_REMEMBER, external_id, request_hash, transaction_uuid, utcnow())


async def transaction_row(reader: Reader | Tx, transaction_uuid: uuid.UUID) -> Row | None:
    return await reader.row(_TRANSACTION, transaction_uuid)


# The operator API keys' statements (api_keys.py).
_KEY_INSERT = """
INSERT INTO operator_keys (uuid, name, key_hash, prefix, scopes, created_at)
VALUES ($1, $2, $3, $4, $5, $6)"""
_KEY_LIST = """
SELECT uuid, name, prefix, scopes, created_at, revoked_at FROM operator_keys
ORDER BY created_at, uuid"""
_KEY_REVOKE = """
UPDATE operator_keys SET revoked_at = $1
WHERE (prefix = $2 OR uuid = $3) AND revoked_at IS NULL RETURNING uuid"""
_KEY_CALLER = "SELECT uuid, scopes FROM operator_keys WHERE key_hash = $1 AND revoked_at IS NULL"
_TOKEN_EXPIRY = "SELECT expires_at FROM api_tokens WHERE uuid = $1"  # noqa: S105 - a statement


async def insert_key(
    tx: Tx,
    key_uuid: uuid.UUID,
    name: str,
    key_hash: str,
    prefix: str,
    scopes: str,
    created_at: datetime,
) -> None:
    """Insert an operator key (its hash and visible prefix, never the key)."""
    await tx.execute(_KEY_INSERT, key_uuid, name, key_hash, prefix, scopes, created_at)


async def keys(reader: Reader | Tx) -> Sequence[Row]:
    """Every operator key, oldest first."""
    return await reader.rows(_KEY_LIST)


async def revoke_keys(
    tx: Tx, now: datetime, prefix: str, key_uuid: uuid.UUID | None
) -> Sequence[Row]:
    """Revoke the live keys with this visible prefix or id; their uuids."""
    return await tx.rows(_KEY_REVOKE, now, prefix, key_uuid)


async def key_caller(reader: Reader, key_hash: str) -> Row | None:
    """The live key with this hash (`uuid`, `scopes`), or None."""
    return await reader.row(_KEY_CALLER, key_hash)


async def token_expiry(tx: Tx, token_uuid: uuid.UUID) -> Any:
    """When the API token expires, as stored."""
    return await tx.value(_TOKEN_EXPIRY, token_uuid)


# The console's sign-ins (console.py).
_CONSOLE_LINK = """
INSERT INTO console_sessions (uuid, link_hash, link_expires_at, created_at)
VALUES ($1, $2, $3, $4)"""
_CONSOLE_SIGN_IN = """
UPDATE console_sessions SET signed_in_at = $1, session_hash = $2, session_expires_at = $3
WHERE link_hash = $4 AND signed_in_at IS NULL AND link_expires_at > $1 RETURNING uuid"""
_CONSOLE_SESSION = """
SELECT uuid FROM console_sessions
WHERE session_hash = $1 AND session_expires_at > $2 AND ended_at IS NULL"""
_CONSOLE_SIGN_OUT = """
UPDATE console_sessions SET ended_at = $2 WHERE session_hash = $1 AND ended_at IS NULL
RETURNING uuid"""


async def insert_console_link(
    tx: Tx, session_uuid: uuid.UUID, link_hash: str, expires_at: datetime, now: datetime
) -> None:
    """A console sign-in waiting for its link (only the link's hash)."""
    await tx.execute(_CONSOLE_LINK, session_uuid, link_hash, expires_at, now)


async def spend_console_link(
    tx: Tx, link_hash: str, session_hash: str, session_expires_at: datetime, now: datetime
) -> uuid.UUID | None:
    """Spend an unused, unexpired link for a session with this hash: the sign-in's uuid, or
    None (one statement: of two tabs using one link, one wins)."""
    row = await tx.row(_CONSOLE_SIGN_IN, now, session_hash, session_expires_at, link_hash)
    return None if row is None else as_uuid(row["uuid"])


async def console_session(reader: Reader, session_hash: str, now: datetime) -> uuid.UUID | None:
    """The live console session with this hash, or None."""
    return as_uuid(await reader.value(_CONSOLE_SESSION, session_hash, now))


async def end_console_session(tx: Tx, session_hash: str, now: datetime) -> uuid.UUID | None:
    """End the session with this hash; its uuid, or None when none was live."""
    return as_uuid(await tx.value(_CONSOLE_SIGN_OUT, session_hash, now))
