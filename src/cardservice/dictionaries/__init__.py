"""Reference dictionaries, BINs and fee schedules, served from the shipped catalogue."""

from __future__ import annotations

from cardservice.dictionaries.fees import (
    DEFAULT_PLAN,
    FeeSchedule,
    Override,
    card_price,
    default_plan,
    program_fees,
    with_overrides,
)
from cardservice.dictionaries.repository import available_bin, every_tag, rate_in_force
from cardservice.dictionaries.schemas import BinRecord, FeeRecord
from cardservice.dictionaries.service import bins
from cardservice.dictionaries.tag_counts import TAG_COUNT_JOB

__all__ = [
    "DEFAULT_PLAN",
    "TAG_COUNT_JOB",
    "BinRecord",
    "FeeRecord",
    "FeeSchedule",
    "Override",
    "available_bin",
    "bins",
    "card_price",
    "default_plan",
    "every_tag",
    "program_fees",
    "rate_in_force",
    "with_overrides",
]
