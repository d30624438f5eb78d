"""Team budgets in the authorization (docs/teams.md#teams-budgets-requests-receipts): a member's
monthly spend in a currency, checked as the card limits are (transactions/control_checks.py),
with the same counter.

`spent` is not kept anywhere of its own: it is the sum of `card_spend` (the counter the
database keeps from every card purchase, in the unit that writes it: approved, held or
captured, less what was released or refunded) over the member's cards in that currency
since the first day of the UTC month, plus their ATM withdrawals of the month counted the
same way (read from the transactions, as the card's `atm_per_day` is). Whatever writes a card
purchase — an authorization of any channel, a stand-in advice, a clearing force post — moves
it, so the budget and the card limits can never disagree.

Under concurrency: the budget row is locked after the card (docs/ledger.md, "Lock order"),
so two authorizations of one member on two cards are checked one after the other, and the
second reads the first's spend once it committed (read committed: a new statement sees it).
"""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime

from cardservice.db.sql import Row, Tx
from cardservice.transactions import repository
from cardservice.transactions.locks import lock_budget

BUDGET_EXCEEDED = "budget_exceeded"


def month_of(now: datetime) -> str:
    """The UTC calendar month of `now`, `YYYY-MM`."""
    return now.astimezone(UTC).strftime("%Y-%m")


def month_start(now: datetime) -> date:
    """The first UTC day of the month of `now`."""
    return now.astimezone(UTC).date().replace(day=1)


def month_amount(budget: Row, month: str) -> int:
    """The budget's amount in `month`: its monthly amount, plus the increases approved for
    that month."""
    extra = budget["month_increase"] if budget["increase_month"] == month else 0
    return int(budget["amount"]) + int(extra)


async def spent_this_month(tx: Tx, user_uuid: uuid.UUID, currency: str, now: datetime) -> int:
    """What the user's cards in `currency` spent this UTC month (purchases and withdrawals)."""
    return await repository.member_spent(tx, user_uuid, currency, month_start(now))


async def budget_refusal(
    tx: Tx, user_uuid: uuid.UUID, currency: str, amount: int, now: datetime
) -> str | None:
    """`budget_exceeded` when `amount` (in the card's currency) would take the user's month
    past their budget in that currency; None when it fits or there is none. Locks the budget
    row (the caller holds the card's lock)."""
    budget = await lock_budget(tx, user_uuid, currency)
    if budget is None:
        return None
    spent = await spent_this_month(tx, user_uuid, currency, now)
    if spent + amount > month_amount(budget, month_of(now)):
        return BUDGET_EXCEEDED
    return None
