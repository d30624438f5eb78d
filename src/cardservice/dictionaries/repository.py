"""The statements of the fee plans and the users' fee overrides (fees.py holds the rules);
the other dictionaries' reads are still in service.py (docs/architecture.md)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from cardservice.sql import Reader, Row, Tx

_DEFAULT_PLAN = "SELECT slug, name, kind, value FROM fee_rates WHERE plan = $1 ORDER BY position"
_OVERRIDES = "SELECT slug, kind, value FROM user_fee_overrides WHERE user_uuid = $1"


async def plan_rows(source: Reader | Tx, plan: str) -> Sequence[Row]:
    """The plan's fees (slug, name, kind, value), in plan order."""
    return await source.rows(_DEFAULT_PLAN, plan)


async def override_rows(reader: Reader, user_uuid: uuid.UUID) -> Sequence[Row]:
    """The user's fee overrides (slug, kind, value)."""
    return await reader.rows(_OVERRIDES, user_uuid)
