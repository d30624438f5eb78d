"""JSON bytes the way every part of the service writes them: exact decimals (never via a
float), `Z` timestamps without microseconds, UUIDs as text, Pydantic models as their dump.
The HTTP edge (`web.JSONResponse`), the outbox, webhooks and the decision endpoint share it."""

from __future__ import annotations

import uuid
from decimal import Decimal

import orjson
from pydantic import BaseModel

_ORJSON_OPTIONS = orjson.OPT_UTC_Z | orjson.OPT_OMIT_MICROSECONDS | orjson.OPT_NAIVE_UTC


def _encode_default(value: object) -> object:
    if isinstance(value, Decimal):
        return orjson.Fragment(format(value, "f"))  # exact decimal text, never via float
    if isinstance(value, uuid.UUID):  # asyncpg's own UUID subclass
        return str(value)
    if isinstance(value, BaseModel):
        return value.model_dump(mode="python")
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def dumps(content: object) -> bytes:
    return orjson.dumps(content, default=_encode_default, option=_ORJSON_OPTIONS)


def minor_json(minor: int) -> orjson.Fragment:
    """Integer minor units as `dumps` writes `ledger.minor_units.from_minor(minor)`: exact, two
    decimals (`1250` → `12.50`, `-5` → `-0.05`), without a Decimal or `dumps`' `default` on
    the way (a transaction's event data has seven amounts: docs/performance.md, "The network
    process's Python a request")."""
    if minor < 0:
        return orjson.Fragment(f"-{-minor // 100}.{-minor % 100:02d}")
    return orjson.Fragment(f"{minor // 100}.{minor % 100:02d}")
