"""Fee schedules: the default plan, with a user's own overrides on top."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.models import FeeRate, UserFeeOverride

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


async def fee_schedule(session: AsyncSession, user_uuid: uuid.UUID) -> FeeSchedule:
    """The user's fees: the default plan, each fee replaced by the user's override if any."""
    rates = (
        await session.scalars(
            select(FeeRate).where(FeeRate.plan == DEFAULT_PLAN).order_by(FeeRate.position)
        )
    ).all()
    fees = {rate.slug: Fee(rate.slug, rate.name, rate.kind, rate.value) for rate in rates}
    overrides = await session.scalars(
        select(UserFeeOverride).where(UserFeeOverride.user_uuid == user_uuid)
    )
    for override in overrides:
        name = fees[override.slug].name if override.slug in fees else override.slug
        fees[override.slug] = Fee(override.slug, name, override.kind, override.value)
    return FeeSchedule(fees)
