"""Spending controls (docs/controls.md#spending-controls): what a card may spend, where, and how it
is checked. A card stores them through `cards/controls.py`; the authorization engine checks them
here.

A card's controls are stored as JSON text on the card (amounts in minor units, NULL = none).
The engine checks them after the card's status and before funds:

* a merchant is refused (`merchant_blocked`) when its tag or country is blocked, or when an
  allow-list is set and the merchant's tag or country is not on it (a merchant that shows
  no tag or country passes a block-list but not an allow-list);
* a limit is breached (`limit_exceeded`) when the amount is over `per_authorization`, or
  when what the card spent in the window plus the amount is over that window's limit.
  Windows are the UTC day, the ISO week (from Monday) and the calendar month, plus the
  card's whole life; spent = approved authorizations (pending, completed, refunded) less
  what was refunded of them; reversed and declined ones count nothing. Those windows count
  purchases; `atm_per_day` counts the card's ATM withdrawals of the UTC day the same way
  (docs/cards.md#atm-withdrawals), and `per_authorization` bounds both.

The window sums are read in one statement while the card row is locked, so two concurrent
authorizations on one card are checked one after the other and cannot both pass a limit
that only one fits. They come from `card_spend`, the card's spend per UTC day, which the
database keeps from the card's purchases (the counters' trigger, in the same transaction as
the purchase): at most a row per day the card spent on, whatever its history.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import orjson

from cardservice.db.sql import Tx
from cardservice.ledger.minor_units import from_minor
from cardservice.transactions.repository import atm_withdrawn
from cardservice.transactions.repository import spent as spent_since

LIMITS = ("per_authorization", "daily", "weekly", "monthly", "lifetime", "atm_per_day")
ATM_WITHDRAWAL = "atm_withdrawal"  # the transaction type `atm_per_day` counts
WINDOWS = ("daily", "weekly", "monthly", "lifetime")
LISTS = ("allowed_tags", "blocked_tags", "allowed_countries", "blocked_countries")
_EPOCH = date(1970, 1, 1)


@dataclass(frozen=True, slots=True)
class Controls:
    """A card's controls as the engine checks them (limits in minor units)."""

    limits: dict[str, int]
    allowed_tags: frozenset[str] | None
    blocked_tags: frozenset[str]
    allowed_countries: frozenset[str] | None
    blocked_countries: frozenset[str]


def _document(text: str | None) -> dict[str, Any] | None:
    return None if text is None else orjson.loads(text)


def controls_record(text: str | None) -> dict[str, Any] | None:
    """The card record's `spending_controls` (amounts in major units), or None."""
    document = _document(text)
    if document is None:
        return None
    record: dict[str, Any] = {
        name: from_minor(document[name]) if name in document else None for name in LIMITS
    }
    record.update({name: document.get(name) for name in LISTS})
    record["blocked_tags"] = record["blocked_tags"] or []
    record["blocked_countries"] = record["blocked_countries"] or []
    return record


def controls_of(text: str | None) -> Controls | None:
    """The stored controls as the engine checks them; None when the card has none."""
    document = _document(text)
    if document is None:
        return None

    def allowed(name: str) -> frozenset[str] | None:
        values = document.get(name)
        return None if values is None else frozenset(values)

    return Controls(
        limits={name: document[name] for name in LIMITS if name in document},
        allowed_tags=allowed("allowed_tags"),
        blocked_tags=frozenset(document.get("blocked_tags") or ()),
        allowed_countries=allowed("allowed_countries"),
        blocked_countries=frozenset(document.get("blocked_countries") or ()),
    )


def _refused(value: str | None, allowed: frozenset[str] | None, blocked: frozenset[str]) -> bool:
    if value is None:
        return allowed is not None
    return value in blocked or (allowed is not None and value not in allowed)


def merchant_refused(controls: Controls, tag: str | None, country: str | None) -> bool:
    """The merchant's tag or country is blocked, or missing from an allow-list."""
    return _refused(tag, controls.allowed_tags, controls.blocked_tags) or _refused(
        country, controls.allowed_countries, controls.blocked_countries
    )


def window_starts(now: datetime) -> dict[str, date]:
    """The first UTC day of each window containing `now` (day, ISO week, month, life)."""
    day = now.astimezone(UTC).date()
    return {
        "daily": day,
        "weekly": day - timedelta(days=day.weekday()),
        "monthly": day.replace(day=1),
        "lifetime": _EPOCH,
    }


async def limit_breached(
    tx: Tx,
    controls: Controls,
    card_uuid: uuid.UUID,
    amount: int,
    now: datetime,
    kind: str = "card_purchase",
) -> bool:
    """`amount` is over the per-authorization limit, or would take a window over its limit
    (an ATM withdrawal, `kind`, also its day's `atm_per_day`). The window sums are read (one
    statement) only when the card has a window limit; the caller holds the card row's lock."""
    limits = controls.limits
    if amount > limits.get("per_authorization", amount):
        return True
    if kind == ATM_WITHDRAWAL and "atm_per_day" in limits:
        day = datetime.combine(window_starts(now)["daily"], time(), UTC)
        if await atm_withdrawn(tx, card_uuid, day) + amount > limits["atm_per_day"]:
            return True
    windows = [name for name in WINDOWS if name in limits]
    if not windows:
        return False
    starts = window_starts(now)
    earliest = min(starts[name] for name in windows)
    spent = await spent_since(
        tx, card_uuid, starts["daily"], starts["weekly"], starts["monthly"], earliest
    )
    assert spent is not None, "an aggregate always has a row"
    return any(int(spent[name]) + amount > limits[name] for name in windows)
