"""Shipped reference data (tags, fees, BINs, payment currencies) and its loader."""

from __future__ import annotations

from cardservice.catalogue.loader import account_currencies, default_hold_days, load_catalogue
from cardservice.catalogue.schemas import (
    AddFxRateRequest,
    ChangeBinRequest,
    CreateBinRequest,
    FxRateEntry,
    ProgramFeesRecord,
    ProgramFeesRequest,
)
from cardservice.catalogue.service import (
    add_fx_rate,
    change_bin,
    create_bin,
    get_program_fees,
    list_fx_rates,
    set_program_fees,
)

__all__ = [
    "AddFxRateRequest",
    "ChangeBinRequest",
    "CreateBinRequest",
    "FxRateEntry",
    "ProgramFeesRecord",
    "ProgramFeesRequest",
    "account_currencies",
    "add_fx_rate",
    "change_bin",
    "create_bin",
    "default_hold_days",
    "get_program_fees",
    "list_fx_rates",
    "load_catalogue",
    "set_program_fees",
]
