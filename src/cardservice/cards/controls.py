"""A card's spending controls as it stores them (docs/controls.md#spending-controls): the JSON text
kept on the card. How they are read and checked lives with the authorization
(transactions/control_checks.py); its names are re-exported here for the card's other rooms
(records, dashboard)."""

from __future__ import annotations

from typing import Any

import orjson

from cardservice.cards.schemas import SpendingControls
from cardservice.ledger.minor_units import to_minor
from cardservice.transactions.control_checks import LIMITS, LISTS, controls_record, window_starts

__all__ = ["LIMITS", "LISTS", "controls_record", "stored", "window_starts"]


def stored(body: SpendingControls | None) -> str | None:
    """The JSON text kept on the card (None when the controls are removed)."""
    if body is None:
        return None
    document: dict[str, Any] = {
        name: to_minor(getattr(body, name)) for name in LIMITS if getattr(body, name) is not None
    }
    for name in LISTS:
        values = getattr(body, name)
        document[name] = None if values is None else sorted(set(values))
    return orjson.dumps(document).decode()
