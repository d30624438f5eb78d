"""Fee schedules: the default plan, the user's program's fees and a BIN's card price over it,
the user's own overrides on top (docs/operations.md#your-own-catalogue)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import orjson

from cardservice.db.sql import Reader, Tx
from cardservice.dictionaries import repository

DEFAULT_PLAN = "default"
Override = tuple[str, str, int]  # (slug, kind, value), value in the plan's units
# Names of fees a program may set that an older plan may lack (shown by `/dictionary/fees`).
FEE_NAMES = {"card_physical": "Physical card", "card_atm": "ATM withdrawal"}


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


def with_overrides(
    plan: dict[str, Fee], overrides: Iterable[Override], beneath: Iterable[Override] = ()
) -> FeeSchedule:
    """The default plan, each fee replaced by one of `beneath` (the user's program's, a BIN's
    card price), then by the user's own override `(slug, kind, value)`: the most specific wins."""
    fees = dict(plan)
    for layer in (beneath, overrides):
        for slug, kind, value in sorted(layer):
            name = fees[slug].name if slug in fees else FEE_NAMES.get(slug, slug)
            fees[slug] = Fee(slug, name, kind, value)
    return FeeSchedule(fees)


def program_fees(stored: Any) -> list[Override]:
    """A program's fees as `programs.fee_overrides` keeps them (JSON, or NULL: none)."""
    if stored is None:
        return []
    return [(str(slug), str(kind), int(value)) for slug, kind, value in orjson.loads(stored)]


def card_price(stored: Any) -> list[Override]:
    """A BIN's card price (`bins.card_price`, NULL: the plan's) as a `card_issue` fee."""
    return [] if stored is None else [("card_issue", "fixed", int(stored))]


async def fee_schedule(reader: Reader, user_uuid: uuid.UUID) -> FeeSchedule:
    """The user's fees: the default plan, each fee replaced by their program's if any, then
    by the user's own override if any."""
    overrides = await repository.override_rows(reader, user_uuid)
    program = program_fees(await repository.program_fee_overrides(reader, user_uuid))
    return with_overrides(await default_plan(reader), [tuple(row) for row in overrides], program)
