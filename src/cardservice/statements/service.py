"""A statement: what an account and the cards it funds held at the start of a UTC month,
every movement of the month (one line per journal entry that changed their money), and what
they held at its end. Opening + lines = closing, to the cent: all three come from the same
postings.

Money moved between the account and its own cards (a card bought or closed, a top-up,
auto-replenish) is not a line: it stays the holder's. The fees of such a move are.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from cardservice.accounts import get_account
from cardservice.auth import Principal
from cardservice.db.sql import Reader, as_datetime, text_uuid
from cardservice.errors import NotFound
from cardservice.ledger.minor_units import from_minor
from cardservice.models.base import utcnow
from cardservice.statements import repository

# ASCII digits only (`\d` takes any script's) and fullmatch (`$` lets a newline trail)
MONTH = re.compile(r"([0-9]{4})-(0[1-9]|1[0-2])")
FIRST_YEAR, LAST_YEAR = 1970, 9998  # 9999-12 would end in year 10000, past `datetime`
LABELS = {
    "card_buy": "Cards issued: fees",
    "card_purchase_pending": "Card purchase",
    "card_purchase_declined": "Fee for a declined purchase",
    "card_purchase_incremented": "Card purchase raised",
    "card_purchase_captured": "Card purchase captured",
    "card_purchase_reversed": "Card purchase released",
    "auto_replenish": "Auto top-up: fee",
    "card_close": "Card closed",
    "card_refund": "Refund",
    "dispute_credit": "Dispute won",
    "dispute_provisional_credit": "Dispute: provisional credit",
    "dispute_provisional_reversal": "Dispute: provisional credit taken back",
    "deposit": "Deposit",
    "withdrawal": "Withdrawal",
}


class StatementNotFound(NotFound):
    message = "Statement not found"


@dataclass(frozen=True, slots=True)
class Period:
    start: datetime
    end: datetime

    @property
    def label(self) -> str:
        return self.start.strftime("%Y-%m")


def period_of(month: str) -> Period:
    """`YYYY-MM` in ASCII, years 1970–9998 → its UTC month; anything else is not a
    statement (404)."""
    found = MONTH.fullmatch(month)
    if found is None or not FIRST_YEAR <= int(found.group(1)) <= LAST_YEAR:
        raise StatementNotFound()
    year, number = int(found.group(1)), int(found.group(2))
    start = datetime(year, number, 1, tzinfo=UTC)
    end = datetime(year + (number == 12), number % 12 + 1, 1, tzinfo=UTC)
    return Period(start, end)


def _description(row: Any) -> str:
    label = LABELS.get(str(row["kind"]), str(row["kind"]).replace("_", " ").capitalize())
    merchant = row["merchant_name"]
    text = f"{label}: {merchant}" if merchant else label
    if row["description"] and not merchant:
        text = f"{label}: {row['description']}"
    if row["merchant_currency"] and row["merchant_amount"] is not None:
        text += f" ({from_minor(int(row['merchant_amount']))} {row['merchant_currency']})"
    return text


async def statement(
    reader: Reader, caller: Principal, account_uuid: uuid.UUID, month: str
) -> dict[str, Any]:
    """The statement of an own account, or a team member's for the team owner (else 404)."""
    period = period_of(month)
    account = await get_account(reader, caller, account_uuid)
    opening = await repository.balance_before(reader, account_uuid, period.start)
    balance, credits, debits = opening, 0, 0
    lines: list[dict[str, Any]] = []
    for row in await repository.entries_between(reader, account_uuid, period.start, period.end):
        amount = int(row["amount"])
        if amount == 0:
            continue
        balance += amount
        credits, debits = credits + max(amount, 0), debits + max(-amount, 0)
        stamp = as_datetime(row["created_at"])
        assert stamp is not None
        lines.append(
            {
                "date": stamp,
                "description": _description(row),
                "transaction_uuid": text_uuid(row["transaction_uuid"]),
                "amount": from_minor(abs(amount)),
                "direction": "credit" if amount > 0 else "debit",
                "balance": from_minor(balance),
            }
        )
    return {
        "account": {
            "uuid": account["uuid"],
            "name": account["name"],
            "currency": account["currency"],
            "holder": account["owner"]["name"],
        },
        "period": {"month": period.label, "start": period.start, "end": period.end},
        "currency": account["currency"],
        "issued_at": utcnow(),
        "opening_balance": from_minor(opening),
        "closing_balance": from_minor(balance),
        "credits": from_minor(credits),
        "debits": from_minor(debits),
        "lines": lines,
    }
