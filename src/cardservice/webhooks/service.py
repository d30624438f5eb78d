"""Webhook endpoint rules: a caller manages its own endpoints; the secret is kept encrypted
and shown in full only when it is made (create, rotate); a rotated-out secret keeps
signing beside the new one for 24 hours.

The owner `user` is a cardholder, or None: the operator, whose program-wide endpoints
receive every event (docs/events.md#program-wide-endpoints) under the same rules."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

import orjson

from cardservice.db.sql import Reader, Row, Tx, as_datetime, flag
from cardservice.errors import NotFound
from cardservice.infra.outbound import new_secret
from cardservice.security import CardCipher
from cardservice.webhooks import repository
from cardservice.webhooks.records import attempt_record, endpoint_record, event_types_of, readable
from cardservice.webhooks.schemas import (
    EndpointCreate,
    EndpointUpdate,
    ProgramEndpointCreate,
    ProgramEndpointUpdate,
)

ROTATION_OVERLAP = timedelta(hours=24)


class EndpointNotFound(NotFound):
    message = "Webhook endpoint not found."


def _json(types: list[str] | None) -> str | None:
    return None if types is None else orjson.dumps(types).decode()


async def create_endpoint(
    tx: Tx,
    cipher: CardCipher,
    user: UUID | None,
    body: EndpointCreate | ProgramEndpointCreate,
    now: datetime,
) -> dict[str, Any]:
    """A new enabled endpoint of the user with a fresh secret, shown in full this once."""
    endpoint = uuid4()
    secret = cipher.encrypt(new_secret())
    types = _json(list(body.event_types) if body.event_types else None)
    url, description = body.url, body.description
    await repository.insert_endpoint(tx, endpoint, user, url, description, types, secret, now)
    return endpoint_record(await own_endpoint(tx, user, endpoint), cipher, reveal=True)


async def own_endpoint(
    db: Reader | Tx, user: UUID | None, endpoint: UUID, *, for_update: bool = False
) -> Row:
    """One of the user's endpoints (locked when it will be written); 404 for any other."""
    row = await repository.own_endpoint(db, user, endpoint, for_update=for_update)
    if row is None:
        raise EndpointNotFound()
    return row


async def list_endpoints(
    reader: Reader, cipher: CardCipher, user: UUID | None, offset: int, limit: int
) -> tuple[list[dict[str, Any]], int]:
    """A page of the user's endpoints, oldest first (secrets masked), and their count."""
    rows, total = await repository.page_of_endpoints(reader, user, offset, limit)
    return [endpoint_record(row, cipher) for row in rows], total


async def update_endpoint(
    tx: Tx,
    cipher: CardCipher,
    user: UUID | None,
    endpoint: UUID,
    body: EndpointUpdate | ProgramEndpointUpdate,
    now: datetime,
) -> dict[str, Any]:
    """Change what the body names; `event_types: null` means every type again."""
    row = await own_endpoint(tx, user, endpoint, for_update=True)
    given = body.model_fields_set
    url = body.url if "url" in given and body.url is not None else row["url"]
    description = body.description if "description" in given else row["description"]
    types = event_types_of(row["event_types"])
    if "event_types" in given:
        types = list(body.event_types) if body.event_types is not None else None
    enabled = flag(row["enabled"]) if body.enabled is None else body.enabled
    await repository.update_endpoint(tx, endpoint, url, description, _json(types), enabled, now)
    return endpoint_record(await own_endpoint(tx, user, endpoint), cipher)


async def delete_endpoint(tx: Tx, user: UUID | None, endpoint: UUID) -> None:
    """The endpoint goes, with its queue and its attempt log."""
    await own_endpoint(tx, user, endpoint, for_update=True)
    await repository.delete_endpoint(tx, endpoint)


async def rotate_secret(
    tx: Tx, cipher: CardCipher, user: UUID | None, endpoint: UUID, now: datetime
) -> dict[str, Any]:
    """A new secret, shown in full; the old one signs beside it for `ROTATION_OVERLAP`."""
    await own_endpoint(tx, user, endpoint, for_update=True)
    secret = cipher.encrypt(new_secret())
    await repository.rotate_secret(tx, endpoint, secret, now + ROTATION_OVERLAP, now)
    return endpoint_record(await own_endpoint(tx, user, endpoint), cipher, reveal=True)


def live_secrets(row: Row, cipher: CardCipher, now: datetime) -> list[str] | None:
    """The secrets that sign now: the current one, and the previous one until it expires.
    None when the current one cannot be read under the configured keys (its deliveries fail
    `secret_unreadable`); a previous one that cannot be read no longer signs, so rotating the
    secret restores an endpoint whose secret was lost."""
    current = readable(cipher, row["secret_ciphertext"])
    if current is None:
        return None
    expires = as_datetime(row["previous_secret_expires_at"])
    previous = readable(cipher, row["previous_secret_ciphertext"])
    return (
        [current] if previous is None or expires is None or expires <= now else [current, previous]
    )


async def attempts(
    reader: Reader, user: UUID | None, endpoint: UUID, offset: int, limit: int
) -> tuple[list[dict[str, Any]], int]:
    """A page of the endpoint's delivery attempts, newest first, and their count."""
    await own_endpoint(reader, user, endpoint)
    rows, total = await repository.page_of_attempts(reader, endpoint, offset, limit)
    return [attempt_record(row) for row in rows], total
