"""A user's decision endpoint: its row (one per user), its record, and its health.

Health lives in the row so every worker shares it: a timeout or an error adds one to
`consecutive_failures`; at `STAND_IN_AFTER` failures in a row the endpoint is put in stand-in
for `STAND_IN_SECONDS` (authorizations take `on_timeout` at once without asking); the first
good answer after that sets the count back to zero.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from cardservice.decisions.schemas import AuthorizationEndpointRequest
from cardservice.errors import NotFound
from cardservice.models.base import utcnow
from cardservice.security import CardCipher
from cardservice.sql import Reader, Row, Tx, as_datetime, iso_z

STAND_IN_AFTER = 5
STAND_IN_SECONDS = 60

_COLUMNS = (
    "url, secret_ciphertext, timeout_ms, on_timeout, consecutive_failures, stand_in_until,"
    " created_at, updated_at"
)
_READ = f"SELECT {_COLUMNS} FROM authorization_endpoints WHERE user_uuid = $1"  # noqa: S608
_PUT = f"""
INSERT INTO authorization_endpoints (user_uuid, {_COLUMNS})
VALUES ($1, $2, $3, $4, $5, 0, NULL, $6, $6)
ON CONFLICT (user_uuid) DO UPDATE SET url = EXCLUDED.url,
  secret_ciphertext = EXCLUDED.secret_ciphertext, timeout_ms = EXCLUDED.timeout_ms,
  on_timeout = EXCLUDED.on_timeout, consecutive_failures = 0, stand_in_until = NULL,
  updated_at = EXCLUDED.updated_at
RETURNING {_COLUMNS}"""  # noqa: S608 - constant columns
_DELETE = "DELETE FROM authorization_endpoints WHERE user_uuid = $1 RETURNING user_uuid"
# $1 user, $2 the end of a stand-in if this failure starts one, $3 STAND_IN_AFTER
_FAILED = """
UPDATE authorization_endpoints SET consecutive_failures = consecutive_failures + 1,
  stand_in_until = CASE WHEN consecutive_failures + 1 >= $3 THEN $2 ELSE stand_in_until END
WHERE user_uuid = $1"""
_RECOVERED = (
    "UPDATE authorization_endpoints SET consecutive_failures = 0, stand_in_until = NULL"
    " WHERE user_uuid = $1"
)


class NoEndpoint(NotFound):
    message = "No authorization endpoint is set."


@dataclass(frozen=True, slots=True)
class Endpoint:
    """The endpoint as an authorization uses it (secret decrypted)."""

    url: str
    secret: str
    timeout_ms: int
    on_timeout: str
    consecutive_failures: int
    stand_in_until: datetime | None

    def in_stand_in(self, now: datetime) -> bool:
        return self.stand_in_until is not None and now < self.stand_in_until

    @property
    def approve_on_timeout(self) -> bool:
        return self.on_timeout == "approve"


def _record(row: Row, secret: str | None = None) -> dict[str, Any]:
    record = {
        "url": row["url"],
        "timeout_ms": row["timeout_ms"],
        "on_timeout": row["on_timeout"],
        "consecutive_failures": row["consecutive_failures"],
        "stand_in_until": iso_z(row["stand_in_until"]),
        "created_at": iso_z(row["created_at"]),
        "updated_at": iso_z(row["updated_at"]),
    }
    if secret is not None:
        record["secret"] = secret
    return record


async def put_endpoint(
    tx: Tx,
    cipher: CardCipher,
    user_uuid: uuid.UUID,
    body: AuthorizationEndpointRequest,
    secret: str,
) -> dict[str, Any]:
    """Set (or replace) the user's endpoint with a new secret; its health starts afresh.
    The record carries the secret: this is the only time it is shown."""
    row = await tx.row(
        _PUT,
        user_uuid,
        body.url,
        cipher.encrypt(secret),
        body.timeout_ms,
        body.on_timeout,
        utcnow(),
    )
    assert row is not None, "an upsert returns its row"
    return _record(row, secret)


async def endpoint_record(reader: Reader, user_uuid: uuid.UUID) -> dict[str, Any]:
    """The user's endpoint without its secret; 404 when none is set."""
    row = await reader.row(_READ, user_uuid)
    if row is None:
        raise NoEndpoint()
    return _record(row)


async def delete_endpoint(tx: Tx, user_uuid: uuid.UUID) -> None:
    """Remove the user's endpoint; 404 when none is set."""
    if await tx.value(_DELETE, user_uuid) is None:
        raise NoEndpoint()


def endpoint_in(row: Row, cipher: CardCipher) -> Endpoint | None:
    """The decision endpoint carried by the engine's locked card row (`endpoint_*` columns,
    `transactions.locks.lock_card_with_fees`), or None when the user has none."""
    if row["endpoint_url"] is None:
        return None
    return Endpoint(
        url=row["endpoint_url"],
        secret=cipher.decrypt(bytes(row["endpoint_secret"])),
        timeout_ms=row["endpoint_timeout_ms"],
        on_timeout=row["endpoint_on_timeout"],
        consecutive_failures=row["endpoint_failures"],
        stand_in_until=as_datetime(row["endpoint_stand_in_until"]),
    )


async def note_failure(tx: Tx, user_uuid: uuid.UUID, now: datetime) -> None:
    """One more timeout or error in a row; the fifth starts a stand-in."""
    until = now + timedelta(seconds=STAND_IN_SECONDS)
    await tx.execute(_FAILED, user_uuid, until, STAND_IN_AFTER)


async def note_recovery(tx: Tx, user_uuid: uuid.UUID) -> None:
    """A good answer: the failure count starts again from zero."""
    await tx.execute(_RECOVERED, user_uuid)
