"""Reference dictionaries, BINs and fee schedules, served from the shipped catalogue."""

from __future__ import annotations

from cardservice.dictionaries.fees import DEFAULT_PLAN, FeeSchedule, default_plan, with_overrides
from cardservice.dictionaries.repository import available_bin, every_tag, rate_in_force

__all__ = [
    "DEFAULT_PLAN",
    "FeeSchedule",
    "available_bin",
    "default_plan",
    "every_tag",
    "rate_in_force",
    "with_overrides",
]
