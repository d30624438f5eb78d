"""Operator API keys (docs/operations.md#running-a-program): `csk_` + 32 random bytes, stored only
as a SHA-256 hash, each with its scopes. Created, listed and revoked from the CLI; never logged.
Creating and revoking a key each leave an audit row (its id, name, scopes or prefix; never the
key)."""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from typing import Any

from cardservice.auth import digest
from cardservice.db.sql import Reader, Tx, as_uuid, iso_z, text_uuid
from cardservice.errors import NotFound, ValidationFailed
from cardservice.models.base import utcnow
from cardservice.operator import repository
from cardservice.operator.acting import Acting

KEY_PREFIX = "csk_"
KEY_BYTES = 32
PREFIX_LENGTH = len(KEY_PREFIX) + 8
SCOPES = ("users", "funding", "cards", "reports", "network", "catalogue", "webhooks")


@dataclass(frozen=True, slots=True)
class Operator:
    """A caller holding a live operator key."""

    key_uuid: uuid.UUID
    scopes: frozenset[str]
    key_hash: str


def parse_scopes(text: str) -> list[str]:
    """`users,funding` → the scopes, each known, at least one (422 otherwise)."""
    scopes = sorted({part.strip() for part in text.split(",") if part.strip()})
    unknown = [scope for scope in scopes if scope not in SCOPES]
    if not scopes or unknown:
        raise ValidationFailed(errors={"scopes": [f"give one or more of {', '.join(SCOPES)}"]})
    return scopes


async def create_key(tx: Tx, by: Acting, name: str, scopes: list[str]) -> tuple[uuid.UUID, str]:
    """A new key, audited: its id and its plaintext, returned once and never stored."""
    if not name.strip() or len(name) > 120:
        raise ValidationFailed(errors={"name": ["must be 1..120 characters"]})
    plaintext = KEY_PREFIX + secrets.token_urlsafe(KEY_BYTES)
    key_uuid = uuid.uuid4()
    await repository.insert_key(
        tx,
        key_uuid,
        name.strip(),
        digest(plaintext),
        plaintext[:PREFIX_LENGTH],
        ",".join(scopes),
        utcnow(),
    )
    details = {"name": name.strip(), "prefix": plaintext[:PREFIX_LENGTH], "scopes": scopes}
    await by.record(tx, "operator_key.created", "operator_key", key_uuid, details)
    return key_uuid, plaintext


async def list_keys(reader: Reader | Tx) -> list[dict[str, Any]]:
    """Every key, oldest first: id, name, visible prefix, scopes, created and revoked."""
    return [
        {
            "uuid": text_uuid(row["uuid"]),
            "name": row["name"],
            "prefix": row["prefix"],
            "scopes": row["scopes"].split(","),
            "created_at": iso_z(row["created_at"]),
            "revoked_at": iso_z(row["revoked_at"]),
        }
        for row in await repository.keys(reader)
    ]


async def revoke_key(tx: Tx, by: Acting, prefix_or_id: str) -> int:
    """Revoke the live keys whose id or visible prefix matches, each audited; how many."""
    try:
        key_id: uuid.UUID | None = uuid.UUID(prefix_or_id)
    except ValueError:
        if len(prefix_or_id) < PREFIX_LENGTH:
            raise NotFound("Give the key's id or at least its first 12 characters.") from None
        key_id = None
    revoked = await repository.revoke_keys(tx, utcnow(), prefix_or_id[:PREFIX_LENGTH], key_id)
    if not revoked:
        raise NotFound("No live operator key matches.")
    for row in revoked:
        await by.record(tx, "operator_key.revoked", "operator_key", as_uuid(row["uuid"]))
    return len(revoked)


async def operator_for_key(reader: Reader, key: str) -> Operator | None:
    """The caller of a live operator key, or None."""
    hashed = digest(key)
    row = await repository.key_caller(reader, hashed)
    if row is None:
        return None
    key_uuid = as_uuid(row["uuid"])
    assert key_uuid is not None
    return Operator(key_uuid, frozenset(row["scopes"].split(",")), hashed)
