"""The notification preferences' record, and the defaults of a person who changed none."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardservice.db.sql import Row
from cardservice.ledger.minor_units import from_minor

# a person who changed nothing: every mail but the large purchase (no amount chosen yet)
DEFAULTS: dict[str, Any] = {
    "declined_payment": True,
    "large_purchase": False,
    "large_purchase_amount": None,
    "team_request_decided": True,
    "receipt_reminder": True,
    "request_to_decide": True,
}


def stored_preferences(row: Row | Mapping[str, Any] | None) -> dict[str, Any]:
    """A row of PREFERENCE_COLUMNS (amount in minor units), or None → the preferences, the
    defaults where nothing is stored. Booleans as booleans on both databases."""
    if row is None or row["declined_payment"] is None:
        return dict(DEFAULTS)
    values = {name: bool(row[name]) for name in DEFAULTS if name != "large_purchase_amount"}
    values["large_purchase_amount"] = row["large_purchase_amount"]
    return values


def preferences_record(values: Mapping[str, Any]) -> dict[str, Any]:
    """The preferences as `GET /user/notifications` shows them."""
    amount = values["large_purchase_amount"]
    return {
        "sign_in": True,
        **{name: values[name] for name in DEFAULTS if name != "large_purchase_amount"},
        "large_purchase_amount": None if amount is None else from_minor(int(amount)),
    }
