"""A user's decision endpoint: its row (one per user) and its health (the record is built in
`records.py`).

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

from cardservice.db.sql import Reader, Row, Tx, as_datetime
from cardservice.decisions import repository
from cardservice.decisions.records import endpoint_record
from cardservice.decisions.schemas import AuthorizationEndpointRequest
from cardservice.errors import NotFound
from cardservice.models.base import utcnow
from cardservice.security import CardCipher

STAND_IN_AFTER = 5
STAND_IN_SECONDS = 60


class NoEndpoint(NotFound):
    message = "No authorization endpoint is set."


@dataclass(frozen=True, slots=True)
class Endpoint:
    """The endpoint as an authorization uses it (secret decrypted; None when the configured
    keys do not read it: the endpoint is then not asked, service.py)."""

    url: str
    secret: str | None
    timeout_ms: int
    on_timeout: str
    consecutive_failures: int
    stand_in_until: datetime | None

    def in_stand_in(self, now: datetime) -> bool:
        return self.stand_in_until is not None and now < self.stand_in_until

    @property
    def approve_on_timeout(self) -> bool:
        return self.on_timeout == "approve"


async def put_endpoint(
    tx: Tx,
    cipher: CardCipher,
    user_uuid: uuid.UUID,
    body: AuthorizationEndpointRequest,
    secret: str,
) -> dict[str, Any]:
    """Set (or replace) the user's endpoint with a new secret; its health starts afresh.
    The record carries the secret: this is the only time it is shown."""
    row = await repository.put_endpoint(
        tx,
        user_uuid,
        body.url,
        cipher.encrypt(secret),
        body.timeout_ms,
        body.on_timeout,
        utcnow(),
    )
    assert row is not None, "an upsert returns its row"
    return endpoint_record(row, secret)


async def get_endpoint(reader: Reader, user_uuid: uuid.UUID) -> dict[str, Any]:
    """The user's endpoint without its secret; 404 when none is set."""
    row = await repository.read_endpoint(reader, user_uuid)
    if row is None:
        raise NoEndpoint()
    return endpoint_record(row)


async def delete_endpoint(tx: Tx, user_uuid: uuid.UUID) -> None:
    """Remove the user's endpoint; 404 when none is set."""
    if not await repository.delete_endpoint(tx, user_uuid):
        raise NoEndpoint()


def endpoint_in(row: Row, cipher: CardCipher) -> Endpoint | None:
    """The decision endpoint carried by the engine's locked card row (`endpoint_*` columns,
    `transactions.locks.lock_card_with_fees`), or None when the user has none."""
    if row["endpoint_url"] is None:
        return None
    return Endpoint(
        url=row["endpoint_url"],
        secret=_readable(cipher, bytes(row["endpoint_secret"])),
        timeout_ms=row["endpoint_timeout_ms"],
        on_timeout=row["endpoint_on_timeout"],
        consecutive_failures=row["endpoint_failures"],
        stand_in_until=as_datetime(row["endpoint_stand_in_until"]),
    )


async def endpoint_of(reader: Reader, cipher: CardCipher, user_uuid: uuid.UUID) -> Endpoint | None:
    """The user's decision endpoint read on its own (a question that locks no card: a
    wallet's provisioning request, docs/network.md#wallet-tokens), or None when the user has
    none."""
    row = await repository.read_endpoint(reader, user_uuid)
    if row is None:
        return None
    return Endpoint(
        url=row["url"],
        secret=_readable(cipher, bytes(row["secret_ciphertext"])),
        timeout_ms=row["timeout_ms"],
        on_timeout=row["on_timeout"],
        consecutive_failures=row["consecutive_failures"],
        stand_in_until=as_datetime(row["stand_in_until"]),
    )


def _readable(cipher: CardCipher, ciphertext: bytes) -> str | None:
    """The secret in clear, or None when the configured keys do not read it: that user's
    authorizations then take `on_timeout`, nobody else's are touched."""
    try:
        return cipher.decrypt(ciphertext)
    except ValueError:
        return None


async def note_failure(tx: Tx, user_uuid: uuid.UUID, now: datetime) -> None:
    """One more timeout or error in a row; the fifth starts a stand-in."""
    until = now + timedelta(seconds=STAND_IN_SECONDS)
    await repository.note_failure(tx, user_uuid, until, STAND_IN_AFTER)


async def note_recovery(tx: Tx, user_uuid: uuid.UUID) -> None:
    """A good answer: the failure count starts again from zero."""
    await repository.note_recovery(tx, user_uuid)
