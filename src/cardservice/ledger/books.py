"""The books at any instant: balances of accounts, cards and the ledger's own accounts as of
an instant, and the day's settlement with the card network (docs/operations.md#running-a-program
"Books").

Balances at an instant never walk the journal's history:
* an account or a card: its day totals (`ledger_holder_days`, kept by the sealer as the
  class totals are) of the days before the instant's UTC day, plus its postings of that day
  up to the instant (the day's entries by `created_at`, then the holder's postings among
  them from its `(holder, entry_id, amount)` index): bounded by the holder's active days
  and one day's entries;
* a class of the books (`class_balances`): the day totals (`ledger_day_totals`, kept by
  the sealer as it chains the entries, `ledger.chain.seal_batch`) of the days before the
  instant's UTC day, plus the postings of that day up to the instant (entries found by
  their `created_at` index). Work grows with the number of days and one day's postings,
  not with the journal (docs/performance.md, "Balances at an instant": 1 M postings).

The day totals hold the sealed entries only; each report adds, in the same statement, the
postings of the committed entries still waiting for the sealer (repository.py), so every
report is exact as of its read, sealed or not (docs/ledger.md, "Balances at any instant").

Every posting belongs to one class; the classes of a currency always sum to zero.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from cardservice.db.sql import Reader
from cardservice.ledger import repository
from cardservice.ledger.chain import holder_of
from cardservice.ledger.minor_units import from_minor

# The ledger's account classes as the operator API names them, from what the postings hold.
CLASSES = {
    "account": "cardholder_accounts",
    "card": "cards",
    "holds": "held",
    "fees": "fees_earned",
    "merchants": "network_settlement",
    "cardholder_receivables": "cardholder_receivables",
    "disputes": "disputes",
    "funding": "funding",
}

# The network settlement book's entries as the settlement report counts them. A kind not
# listed here still counts in `net`, and with captures (money owed to the network) or refunds
# by its sign.
CAPTURES, REFUNDS, DISPUTE_CREDITS = "captures", "refunds", "dispute_credits"
# chargebacks sent (and pre-arbitrations: claimed from the network) and second presentments
# received (given back to it), docs/disputes.md#money
CHARGEBACKS, REPRESENTMENTS = "chargebacks", "representments"
SETTLEMENT_KINDS = {
    "card_purchase_captured": CAPTURES,
    "card_refund": REFUNDS,
    "dispute_credit": DISPUTE_CREDITS,
    "dispute_chargeback": CHARGEBACKS,
    "dispute_pre_arbitration": CHARGEBACKS,
    "dispute_representment": REPRESENTMENTS,
}
NAMES = (CAPTURES, REFUNDS, DISPUTE_CREDITS, CHARGEBACKS, REPRESENTMENTS)
OWED_TO_NETWORK = (CAPTURES, REPRESENTMENTS)  # positive postings to the book


def _start_of(day: date) -> datetime:
    return datetime.combine(day, time(), UTC)


def _day_start(as_of: datetime) -> tuple[date, datetime]:
    instant = as_of.astimezone(UTC)
    return instant.date(), _start_of(instant.date())


async def account_balance_as_of(reader: Reader, account: uuid.UUID, as_of: datetime) -> int:
    """An account's balance (minor units) at `as_of`."""
    day, start = _day_start(as_of)
    return await repository.holder_balance_as_of(
        reader, "account_uuid", holder_of(account, None, None), account, day, start, as_of
    )


async def card_balance_as_of(reader: Reader, card: uuid.UUID, as_of: datetime) -> int:
    """A card's balance (minor units) at `as_of`."""
    day, start = _day_start(as_of)
    return await repository.holder_balance_as_of(
        reader, "card_uuid", holder_of(None, card, None), card, day, start, as_of
    )


async def class_totals(reader: Reader, as_of: datetime) -> dict[str, dict[str, int]]:
    """currency → class → balance (minor units, signed: the sum of the class's postings)."""
    day, start = _day_start(as_of)
    totals: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(CLASSES.values(), 0))
    for row in await repository.class_totals_as_of(reader, day, start, as_of):
        name = CLASSES.get(str(row["holder_class"]), str(row["holder_class"]))
        totals[str(row["currency"])][name] = int(row["amount"])
    return dict(totals)


async def class_balances(reader: Reader, as_of: datetime) -> list[dict[str, Any]]:
    """Per currency, the balance of every ledger account class at `as_of` (the operator's
    `GET /operator/balances?as_of=`): `[{currency, balances: [{class, balance}]}]`, each
    currency's balances summing to zero. A balance is the signed sum of the class's postings
    (money the service holds for cardholders is positive; `funding`, where it came from,
    negative)."""
    return [
        {
            "currency": currency,
            "balances": [
                {"class": name, "balance": from_minor(amount)} for name, amount in classes.items()
            ],
        }
        for currency, classes in sorted((await class_totals(reader, as_of)).items())
    ]


async def settlement_report(reader: Reader, day: date) -> list[dict[str, Any]]:
    """Per currency, that UTC day's postings to the network settlement book (`merchants`):
    captures and representments (owed to the network), refunds, dispute credits and
    chargebacks (owed back), and `net` — the sum of the day's postings to the book, what is
    owed to the network."""
    report: dict[str, dict[str, Any]] = {}
    start, end = _start_of(day), _start_of(day + timedelta(days=1))
    for row in await repository.day_class_totals(reader, day, "merchants", start, end):
        currency, amount = str(row["currency"]), int(row["amount"])
        item = report.setdefault(
            currency,
            {
                "currency": currency,
                "date": day.isoformat(),
                **{name: {"count": 0, "amount": 0} for name in NAMES},
                "net": 0,
            },
        )
        name = SETTLEMENT_KINDS.get(str(row["kind"]), CAPTURES if amount > 0 else REFUNDS)
        item[name]["count"] += int(row["postings"])
        item[name]["amount"] += amount if name in OWED_TO_NETWORK else -amount
        item["net"] += amount
    for item in report.values():
        for name in NAMES:
            item[name]["amount"] = from_minor(item[name]["amount"])
        item["net"] = from_minor(item["net"])
    return [report[currency] for currency in sorted(report)]
