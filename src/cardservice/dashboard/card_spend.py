"""A card's spend against each of its spending limits, from the API's own transaction list
(`GET /transaction/report` filtered to the card): what counts is what
docs/controls.md#spending-controls counts, approved purchases less reversals and refunds, in the UTC
day, ISO week, calendar month and the card's life. The limits are the card's `spending_controls`."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

from cardservice.dashboard.api import Api

REPORT_PAGES = 20  # at most 2,000 purchases read for the lifetime window
COUNTED = ("pending", "completed", "refunded")  # reversed and declined moved nothing
WINDOWS = ("daily", "weekly", "monthly", "lifetime")


def window_start(name: str, today: date) -> date | None:
    """The first UTC day of a window (None: the card's whole life)."""
    if name == "daily":
        return today
    if name == "weekly":
        return today - timedelta(days=today.weekday())
    if name == "monthly":
        return today.replace(day=1)
    return None


def spent(rows: list[dict[str, Any]], since: date | None) -> Decimal:
    """Purchases from `since` (inclusive) on, less what was refunded of them."""
    total = Decimal(0)
    for row in rows:
        if row["type"] != "card_purchase" or row["status"] not in COUNTED:
            continue
        day = datetime.fromisoformat(str(row["created_at"]).replace("Z", "+00:00")).date()
        if since is None or day >= since:
            total += Decimal(row["amount"]) - Decimal(row["refunded_amount"])
    return max(total, Decimal(0))


async def spend_against_limits(api: Api, card: dict[str, Any]) -> list[dict[str, Any]]:
    """For each limit the card has: the limit, what was spent in its window, what is left,
    and the percent used (for the meter). Empty when the card has no limit."""
    controls = card.get("spending_controls") or {}
    windows = [name for name in WINDOWS if controls.get(name) is not None]
    if not windows:
        return []
    today = datetime.now(UTC).date()
    params: dict[str, str | int] = {
        "filters[card_uuid]": str(card["uuid"]),
        "filters[type]": "card_purchase",
    }
    if "lifetime" not in windows:
        earliest = min(d for d in (window_start(n, today) for n in windows) if d is not None)
        params["filters[date_from]"] = earliest.isoformat()
    rows = await api.every_page("/transaction/report", params, REPORT_PAGES)
    result = []
    for name in windows:
        limit = Decimal(controls[name])
        used = spent(rows, window_start(name, today))
        percent = int(min(used / limit, Decimal(1)) * 100) if limit > 0 else 100
        result.append(
            {
                "name": name,
                "limit": limit,
                "spent": used,
                "left": max(limit - used, Decimal(0)),
                "percent": percent,
                "since": window_start(name, today),
            }
        )
    return result


def budget_meter(budget: dict[str, Any]) -> dict[str, Any]:
    """A team budget (docs/teams.md#budgets-and-how-spent-is-counted) with the percent of it
    spent (capped at 100 for the bar), what it is over by (0 within it) and its month as a
    person reads it (`November 2026`)."""
    amount, spent = Decimal(budget["amount"]), Decimal(budget["spent"])
    percent = int(min(spent * 100 / amount, Decimal(100))) if amount > 0 else 100
    month = datetime.strptime(budget["month"], "%Y-%m").strftime("%B %Y")
    return {**budget, "percent": percent, "over": max(spent - amount, 0), "month_name": month}
