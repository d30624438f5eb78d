"""Shipped reference data (tags, fees, BINs, payment currencies) and its loader."""

from __future__ import annotations

from cardservice.catalogue.loader import account_currencies, default_hold_days, load_catalogue

__all__ = ["account_currencies", "default_hold_days", "load_catalogue"]
