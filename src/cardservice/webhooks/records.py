"""The webhook endpoint's record and its delivery attempt's record (the API's shapes), built
from rows of `repository`."""

from __future__ import annotations

from typing import Any

import orjson

from cardservice.db.sql import Row, flag, iso_z, text_uuid
from cardservice.infra.outbound import masked
from cardservice.security import CardCipher


def event_types_of(value: Any) -> list[str] | None:
    """The stored `event_types` (JSON text on both drivers) → a list, or None for all."""
    if value is None:
        return None
    parsed = orjson.loads(value) if isinstance(value, str | bytes) else value
    return None if parsed is None else list(parsed)


def readable(cipher: CardCipher, ciphertext: bytes | None) -> str | None:
    """A stored secret in clear; None when there is none or the configured keys do not
    read it (one endpoint's lost secret fails that endpoint only, never a list or the loop)."""
    if ciphertext is None:
        return None
    try:
        return cipher.decrypt(bytes(ciphertext))
    except ValueError:
        return None


def endpoint_record(row: Row, cipher: CardCipher, *, reveal: bool = False) -> dict[str, Any]:
    """The endpoint as the API shows it; a secret the keys cannot read shows as `whsec_****`
    (rotating it makes a new one)."""
    secret = readable(cipher, row["secret_ciphertext"]) or ""
    return {
        "uuid": text_uuid(row["uuid"]),
        "url": row["url"],
        "description": row["description"],
        "event_types": event_types_of(row["event_types"]),
        "enabled": flag(row["enabled"]),
        "secret": secret if reveal else masked(secret),
        "created_at": iso_z(row["created_at"]),
        "updated_at": iso_z(row["updated_at"]),
    }


def attempt_record(row: Row) -> dict[str, Any]:
    """A delivery attempt: its event, number, HTTP status or error, duration, next attempt."""
    return {
        "event_uuid": text_uuid(row["event_uuid"]),
        "attempt": row["attempt"],
        "status_code": row["status_code"],
        "error": row["error"],
        "duration_ms": row["duration_ms"],
        "next_attempt_at": iso_z(row["next_attempt_at"]),
        "created_at": iso_z(row["created_at"]),
    }
