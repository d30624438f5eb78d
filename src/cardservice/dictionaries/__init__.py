"""Reference dictionaries, BINs and fee schedules, served from the shipped catalogue."""

from __future__ import annotations

from cardservice.dictionaries.fees import DEFAULT_PLAN, FeeSchedule, default_plan, with_overrides

__all__ = ["DEFAULT_PLAN", "FeeSchedule", "default_plan", "with_overrides"]
