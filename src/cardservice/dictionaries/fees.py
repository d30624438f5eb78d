"""Fee schedules: the default plan, with a user's own overrides on top."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from cardservice.db.sql import Reader, Tx
from cardservice.dictionaries import repository

DEFAULT_PLAN = "default"


@dataclass(frozen=True, slots=True)
class Fee:
    slug: str
    name: str
    kind: str  # fixed: `value` in minor units; percent: `value` in hundredths of a percent
    value: int


@dataclass(frozen=True, slots=True)
class FeeSchedule:
    fees: dict[str, Fee]

    def fixed(self, slug: str) -> int:
        """A fixed fee in minor units (0 when the schedule has none)."""
        fee = self.fees.get(slug)
        return fee.value if fee is not None and fee.kind == "fixed" else 0

    def percent(self, slug: str) -> int:
        """A percent fee in hundredths of a percent (0 when the schedule has none)."""
        fee = self.fees.get(slug)
        return fee.value if fee is not None and fee.kind == "percent" else 0


# The default plan of each database (by its `key`), read once per process: it is reference
# data that only a migration changes (`catalogue.loader`), and a deploy restarts the service.
# A user's overrides are read on every call.
_default_plans: dict[str, dict[str, Fee]] = {}


async def default_plan(source: Reader | Tx) -> dict[str, Fee]:
    """The default plan's fees by slug, in plan order (cached per database)."""
    plan = _default_plans.get(source.key)
    if plan is None:
        rows = await repository.plan_rows(source, DEFAULT_PLAN)
        plan = _default_plans[source.key] = {
            row["slug"]: Fee(row["slug"], row["name"], row["kind"], row["value"]) for row in rows
        }
    return plan


def with_overrides(plan: dict[str, Fee], overrides: Iterable[tuple[str, str, int]]) -> FeeSchedule:
    """The default plan, each fee replaced by the user's override `(slug, kind, value)`."""
    fees = dict(plan)
    for slug, kind, value in sorted(overrides):
        name = fees[slug].name if slug in fees else slug
        fees[slug] = Fee(slug, name, kind, value)
    return FeeSchedule(fees)


async def fee_schedule(reader: Reader, user_uuid: uuid.UUID) -> FeeSchedule:
    """The user's fees: the default plan, each fee replaced by the user's override if any."""
    overrides = await repository.override_rows(reader, user_uuid)
    return with_overrides(await default_plan(reader), [tuple(row) for row in overrides])
