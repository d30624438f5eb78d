"""The statements of `authorization_endpoints` (the user's decision endpoint, one row per
user): read, put, delete, and its health (endpoints.py holds the rules)."""

from __future__ import annotations

import uuid
from datetime import datetime

from cardservice.db.sql import Reader, Row, Tx

_ENDPOINT_COLUMNS = (
    "url, secret_ciphertext, timeout_ms, on_timeout, consecutive_failures, stand_in_until,"
    " created_at, updated_at"
)

_READ_ENDPOINT = f"SELECT {_ENDPOINT_COLUMNS} FROM authorization_endpoints WHERE user_uuid = $1"  # noqa: S608

_PUT_ENDPOINT = f"""
INSERT INTO authorization_endpoints (user_uuid, {_ENDPOINT_COLUMNS})
VALUES ($1, $2, $3, $4, $5, 0, NULL, $6, $6)
ON CONFLICT (user_uuid) DO UPDATE SET url = EXCLUDED.url,
  secret_ciphertext = EXCLUDED.secret_ciphertext, timeout_ms = EXCLUDED.timeout_ms,
  on_timeout = EXCLUDED.on_timeout, consecutive_failures = 0, stand_in_until = NULL,
  updated_at = EXCLUDED.updated_at
RETURNING {_ENDPOINT_COLUMNS}"""  # noqa: S608 - constant columns

_DELETE_ENDPOINT = "DELETE FROM authorization_endpoints WHERE user_uuid = $1 RETURNING user_uuid"

# $1 user, $2 the end of a stand-in if this failure starts one, $3 STAND_IN_AFTER
_NOTE_FAILURE = """
UPDATE authorization_endpoints SET consecutive_failures = consecutive_failures + 1,
  stand_in_until = CASE WHEN consecutive_failures + 1 >= $3 THEN $2 ELSE stand_in_until END
WHERE user_uuid = $1"""

_NOTE_RECOVERY = (
    "UPDATE authorization_endpoints SET consecutive_failures = 0, stand_in_until = NULL"
    " WHERE user_uuid = $1"
)


async def put_endpoint(
    tx: Tx,
    user_uuid: uuid.UUID,
    url: str,
    secret_ciphertext: bytes,
    timeout_ms: int,
    on_timeout: str,
    now: datetime,
) -> Row | None:
    """Insert or replace the user's endpoint, its health afresh; its row."""
    return await tx.row(
        _PUT_ENDPOINT, user_uuid, url, secret_ciphertext, timeout_ms, on_timeout, now
    )


async def read_endpoint(reader: Reader, user_uuid: uuid.UUID) -> Row | None:
    """The user's endpoint's row, or None."""
    return await reader.row(_READ_ENDPOINT, user_uuid)


async def delete_endpoint(tx: Tx, user_uuid: uuid.UUID) -> bool:
    """Delete the user's endpoint; whether there was one."""
    return await tx.value(_DELETE_ENDPOINT, user_uuid) is not None


async def note_failure(
    tx: Tx, user_uuid: uuid.UUID, stand_in_until: datetime, stand_in_after: int
) -> None:
    """One more failure in a row; a stand-in until `stand_in_until` at `stand_in_after`."""
    await tx.execute(_NOTE_FAILURE, user_uuid, stand_in_until, stand_in_after)


async def note_recovery(tx: Tx, user_uuid: uuid.UUID) -> None:
    """The failure count and the stand-in are cleared."""
    await tx.execute(_NOTE_RECOVERY, user_uuid)
