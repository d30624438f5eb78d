"""The command line's argument types, shared by every command module (argparse `type=`)."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation

from cardservice.ledger.money import to_minor


def amount(text: str) -> int:
    """A positive amount with at most 2 decimals, in minor units."""
    try:
        value = to_minor(Decimal(text))
    except (InvalidOperation, ValueError):
        raise argparse.ArgumentTypeError(
            f"not an amount with at most 2 decimals: {text!r}"
        ) from None
    if value <= 0:
        raise argparse.ArgumentTypeError("an amount must be positive")
    return value


def instant(text: str) -> datetime:
    """An ISO 8601 instant with its zone, in UTC."""
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO 8601 instant: {text!r}") from None
    if moment.tzinfo is None:
        raise argparse.ArgumentTypeError(f"give the instant's offset (Z for UTC): {text!r}")
    return moment.astimezone(UTC)
