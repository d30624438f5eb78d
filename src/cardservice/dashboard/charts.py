"""Spend per day for the last 30 days, as an inline SVG bar chart drawn on the server: no
chart library, no script, readable by a screen reader through its table twin."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

DAYS = 30
SPENDING_STATUSES = ("pending", "completed")  # as the user summary counts spend
WIDTH, HEIGHT, GAP = 600, 160, 2


@dataclass(frozen=True, slots=True)
class Bar:
    day: date
    amount: Decimal
    x: float
    y: float
    width: float
    height: float


def spend_days(today: date) -> list[date]:
    """The 30 UTC days that end with `today`, oldest first."""
    return [today - timedelta(days=offset) for offset in range(DAYS - 1, -1, -1)]


def spend_per_day(
    transactions: Iterable[Mapping[str, Any]], currency: str, today: date
) -> dict[date, Decimal]:
    """Card purchases (pending or completed) in `currency`, summed per UTC day."""
    totals = dict.fromkeys(spend_days(today), Decimal(0))
    for row in transactions:
        if row["type"] != "card_purchase" or row["status"] not in SPENDING_STATUSES:
            continue
        if row["currency"] != currency:
            continue
        day = datetime.fromisoformat(row["created_at"].replace("Z", "+00:00")).date()
        if day in totals:
            totals[day] += Decimal(row["amount"])
    return totals


def nice_top(peak: Decimal) -> Decimal:
    """The round amount the amount axis ends at: the smallest 1, 2, 2.5 or 5 × 10ⁿ at or
    above the highest day (418.55 → 500), so its half is round too (250, not 209.28)."""
    if peak <= 0:
        return Decimal(1)
    power = Decimal(10) ** (len(str(int(peak))) - 1 if peak >= 1 else peak.adjusted())
    for step in (Decimal(1), Decimal(2), Decimal("2.5"), Decimal(5), Decimal(10)):
        if step * power >= peak:
            return step * power
    return 10 * power


def bars(totals: Mapping[date, Decimal]) -> list[Bar]:
    """One bar per day, scaled to the axis's round top (`nice_top`)."""
    peak = nice_top(max(totals.values(), default=Decimal(0)))
    step = WIDTH / max(len(totals), 1)
    result = []
    for index, (day, amount) in enumerate(sorted(totals.items())):
        height = float(amount / peak) * (HEIGHT - 10)
        result.append(Bar(day, amount, index * step, HEIGHT - height, step - GAP, height))
    return result


@dataclass(frozen=True, slots=True)
class Tick:
    label: str
    at: float  # y for the amount axis, x (bar centre) for the date axis


def amount_ticks(totals: Mapping[date, Decimal]) -> list[Tick]:
    """0, half the axis and its round top (`nice_top`), where the bars reach them."""
    peak = max(totals.values(), default=Decimal(0))
    if not peak:
        return [Tick("0", float(HEIGHT))]
    top, highest = nice_top(peak), HEIGHT - (HEIGHT - 10)
    return [
        Tick("0", float(HEIGHT)),
        Tick(f"{(top / 2).normalize():,f}", (HEIGHT + highest) / 2),
        Tick(f"{top.normalize():,f}", float(highest)),
    ]


def date_ticks(totals: Mapping[date, Decimal]) -> list[Tick]:
    """Every 7th day from the newest backwards, as `24 Nov`, under its bar."""
    days = sorted(totals)
    step = WIDTH / max(len(days), 1)
    marked = set(range(len(days) - 1, -1, -7))
    return [
        Tick(day.strftime("%d %b").lstrip("0"), index * step + (step - GAP) / 2)
        for index, day in enumerate(days)
        if index in marked
    ]
