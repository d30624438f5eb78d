"""A card's spend against each of its spending limits, from the API's own transaction list
(`GET /transaction/report` filtered to the card): what counts is what
docs/controls.md#spending-controls counts, approved purchases less reversals and refunds, in the UTC
day, ISO week, calendar month and the card's life, and the ATM withdrawals of the UTC day
(`atm_per_day`, docs/cards.md#atm-withdrawals) counted the same way. The limits are the card's
`spending_controls`."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

from cardservice.dashboard.api import Api

REPORT_PAGES = 20  # at most 2,000 purchases read for the lifetime window
COUNTED = ("pending", "completed", "refunded")  # reversed and declined moved nothing
WINDOWS = ("daily", "weekly", "monthly", "lifetime")
ATM = "atm_per_day"  # the card's ATM withdrawals of the UTC day
PURCHASE, WITHDRAWAL = "card_purchase", "atm_withdrawal"


def window_start(name: str, today: date) -> date | None:
    """The first UTC day of a window (None: the card's whole life)."""
    if name in ("daily", ATM):
        return today
    if name == "weekly":
        return today - timedelta(days=today.weekday())
    if name == "monthly":
        return today.replace(day=1)
    return None


def spent(rows: list[dict[str, Any]], since: date | None, kind: str = PURCHASE) -> Decimal:
    """Purchases (or withdrawals, `kind`) from `since` (inclusive) on, less what was refunded
    of them."""
    total = Decimal(0)
    for row in rows:
        if row["type"] != kind or row["status"] not in COUNTED:
            continue
        day = datetime.fromisoformat(str(row["created_at"]).replace("Z", "+00:00")).date()
        if since is None or day >= since:
            total += Decimal(row["amount"]) - Decimal(row["refunded_amount"])
    return max(total, Decimal(0))


async def spend_against_limits(api: Api, card: dict[str, Any]) -> list[dict[str, Any]]:
    """For each limit the card has: the limit, what was spent in its window, what is left,
    and the percent used (for the meter). Empty when the card has no limit."""
    windows = _windows(card)
    today = datetime.now(UTC).date()
    meters = []
    purchases = [name for name in windows if name != ATM]
    if purchases:
        params: dict[str, str | int] = {
            "filters[card_uuid]": str(card["uuid"]),
            "filters[type]": PURCHASE,
        }
        if "lifetime" not in purchases:
            earliest = min(d for d in (window_start(n, today) for n in purchases) if d is not None)
            params["filters[date_from]"] = earliest.isoformat()
        rows = await api.every_page("/transaction/report", params, REPORT_PAGES)
        meters = [_meter(card, n, spent(rows, window_start(n, today)), today) for n in purchases]
    if ATM in windows:
        params = {
            "filters[card_uuid]": str(card["uuid"]),
            "filters[type]": WITHDRAWAL,
            "filters[date_from]": today.isoformat(),
        }
        rows = await api.every_page("/transaction/report", params, REPORT_PAGES)
        meters.append(_meter(card, ATM, spent(rows, today, WITHDRAWAL), today))
    return meters


async def team_card_spend(
    api: Api, card: dict[str, Any], since: date, kind: str | None = None
) -> Decimal:
    """What a card spent from `since` to today, as its team's owner reads it: the card's row
    of `GET /user/spend?group_by=card` (the same count as the limits: approved purchases and
    ATM withdrawals, or those of `kind`, less refunds), in the card's currency. The owner
    reads no member's transactions (docs/teams.md#a-team-owner-and-the-members-cards)."""
    query: dict[str, str | int] = {"group_by": "card", "from": since.isoformat(), "limit": 500}
    if kind is not None:
        query["type"] = kind
    for row in (await api.body("/user/spend", query))["data"]:
        if row["key"] == str(card["uuid"]) and row["currency"] == card["currency"]:
            return Decimal(row["amount"])
    return Decimal(0)


async def team_spend_against_limits(api: Api, card: dict[str, Any]) -> list[dict[str, Any]]:
    """`spend_against_limits` of a member's card for the team's owner, from `team_card_spend`
    per window (the card's life starts on the day it was made)."""
    today = datetime.now(UTC).date()
    made = datetime.fromisoformat(str(card["created_at"]).replace("Z", "+00:00")).date()
    meters = []
    for name in _windows(card):
        kind = WITHDRAWAL if name == ATM else PURCHASE
        used = await team_card_spend(api, card, window_start(name, today) or made, kind)
        meters.append(_meter(card, name, used, today))
    return meters


def _windows(card: dict[str, Any]) -> list[str]:
    controls = card.get("spending_controls") or {}
    return [name for name in (*WINDOWS, ATM) if controls.get(name) is not None]


def _meter(card: dict[str, Any], name: str, used: Decimal, today: date) -> dict[str, Any]:
    limit = Decimal(card["spending_controls"][name])
    percent = int(min(used / limit, Decimal(1)) * 100) if limit > 0 else 100
    return {
        "name": name,
        "limit": limit,
        "spent": used,
        "left": max(limit - used, Decimal(0)),
        "percent": percent,
        "since": window_start(name, today),
    }


def budget_meter(budget: dict[str, Any]) -> dict[str, Any]:
    """A team budget (docs/teams.md#budgets-and-how-spent-is-counted) with the percent of it
    spent (capped at 100 for the bar), what it is over by (0 within it) and its month as a
    person reads it (`November 2026`)."""
    amount, spent = Decimal(budget["amount"]), Decimal(budget["spent"])
    percent = int(min(spent * 100 / amount, Decimal(100))) if amount > 0 else 100
    month = datetime.strptime(budget["month"], "%Y-%m").strftime("%B %Y")
    return {**budget, "percent": percent, "over": max(spent - amount, 0), "month_name": month}
