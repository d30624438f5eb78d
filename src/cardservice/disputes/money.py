"""The money of a dispute's steps (docs/disputes.md#money): each step that moves money is one
balanced entry between the card, the `disputes` book and the network settlement book
(`merchants`).

A dispute keeps two amounts: `provisional` (credited to the card ahead of the outcome) and
`claimed` (claimed from the network and not given back). The `disputes` book holds, for each
dispute, `claimed − provisional`: zero once it is decided.

- opened with the program's provisional credit: card +A, `disputes` −A
  (`dispute_provisional_credit`);
- chargeback (or pre-arbitration) sent: `merchants` −X, `disputes` +X (`dispute_chargeback`,
  `dispute_pre_arbitration`): the claim on the network;
- second presentment received: `merchants` +R, `disputes` −R (`dispute_representment`);
- won: the card gets what it was not credited yet (`dispute_credit`), the network pays what
  was not claimed yet (a dispute resolved before any chargeback: §12's credit);
- lost or withdrawn: the provisional credit back from the card (`dispute_provisional_reversal`;
  what the card cannot cover owed as `shortfall`, `cardholder_receivables`), the claim given
  back to the network.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from cardservice.db.sql import Tx, as_datetime
from cardservice.ledger import (
    Entry,
    Leg,
    SystemBook,
    book_leg,
    post_entries,
    post_entry,
)
from cardservice.transactions import (
    Purchase,
    credit_row,
    holder_leg,
    insert_transactions,
    owed_beyond,
)

NETWORK, DISPUTES = SystemBook.MERCHANTS, SystemBook.DISPUTES


def captured_amount(purchase: Mapping[str, Any]) -> int:
    """What the purchase captured (minor units): the sum of its captures
    (docs/transactions.md#disputes)."""
    captured = purchase.get("captured_amount")
    return int(purchase["amount"] if captured is None else captured)


def captured_at(purchase: Mapping[str, Any]) -> datetime:
    """When the purchase was captured: set by the database as it became completed."""
    stamp = as_datetime(purchase["captured_at"]) or as_datetime(purchase["updated_at"])
    assert stamp is not None
    return stamp


def disputable_amount(purchase: Mapping[str, Any], credited: int) -> int:
    """What a dispute can still claim: the captured amount less refunds and dispute credits."""
    return captured_amount(purchase) - int(purchase["refunded_amount"]) - credited


def _books(currency: str, network: int, disputes: int) -> list[Leg]:
    return [book_leg(NETWORK, currency, network), book_leg(DISPUTES, currency, disputes)]


async def _to_card(
    tx: Tx, purchase: Purchase, type_: str, amount: int, now: datetime, others: list[Leg]
) -> uuid.UUID:
    """`amount` to the card (or its replacement, or its account when closed) as one
    transaction of `type_` and one entry with `others`."""
    row = credit_row(purchase, type_, amount, _DESCRIPTIONS[type_], now)
    row["card_uuid"], holder = await holder_leg(tx, purchase, amount, closed_to_account=True)
    await insert_transactions(tx, [row])
    await post_entry(tx, type_, [holder, *others], reference=row["uuid"])
    credit: uuid.UUID = row["uuid"]
    return credit


_DESCRIPTIONS = {
    "dispute_provisional_credit": "Dispute: provisional credit",
    "dispute_credit": "Dispute won",
    "dispute_provisional_reversal": "Dispute: provisional credit taken back",
}


async def give_provisional_credit(
    tx: Tx, purchase: Purchase, dispute: dict[str, Any], now: datetime
) -> None:
    """The disputed amount to the card at once, from the `disputes` book."""
    amount = int(dispute["amount"])
    others = [book_leg(DISPUTES, purchase.currency, -amount)]
    await _to_card(tx, purchase, "dispute_provisional_credit", amount, now, others)
    dispute["provisional"] = amount


async def claim_all(tx: Tx, claims: list[tuple[dict[str, Any], int, str]]) -> None:
    """Each `(dispute, amount, kind)`: `amount` claimed from the network (a chargeback, a
    pre-arbitration), one entry each, written together."""
    entries = []
    for dispute, amount, kind in claims:
        legs = _books(str(dispute["currency"]), -amount, amount)
        entries.append(Entry(kind, legs, dispute["uuid"]))
        dispute["claimed"] = int(dispute["claimed"]) + amount
    await post_entries(tx, entries)


async def give_back(tx: Tx, dispute: dict[str, Any], amount: int) -> None:
    """`amount` of the claim back to the network (a second presentment)."""
    legs = _books(str(dispute["currency"]), amount, -amount)
    await post_entry(tx, "dispute_representment", legs, reference=dispute["uuid"])
    dispute["claimed"] = int(dispute["claimed"]) - amount


async def win(
    tx: Tx, purchase: Purchase, dispute: dict[str, Any], left: int, now: datetime
) -> uuid.UUID | None:
    """Won: the card ends with the disputed amount (never more than the purchase has `left`
    to give back beyond the provisional credit), the network having paid it; the credit's
    transaction, when the card gets more now."""
    currency, provisional, claimed = (
        purchase.currency,
        int(dispute["provisional"]),
        int(dispute["claimed"]),
    )
    credit = max(0, min(int(dispute["amount"]) - provisional, left))
    books = _books(currency, -(provisional + credit - claimed), -(claimed - provisional))
    dispute["provisional"] = dispute["claimed"] = 0
    if credit == 0:
        await post_entry(tx, "dispute_won", books, reference=dispute["uuid"])
        return None
    return await _to_card(tx, purchase, "dispute_credit", credit, now, books)


async def take_back(tx: Tx, purchase: Purchase, dispute: dict[str, Any], now: datetime) -> None:
    """Lost or withdrawn: the provisional credit back from the card (what it cannot cover
    owed, `cardholder_receivables`), the claim back to the network."""
    currency, provisional, claimed = (
        purchase.currency,
        int(dispute["provisional"]),
        int(dispute["claimed"]),
    )
    books = _books(currency, claimed, provisional - claimed)
    dispute["provisional"] = dispute["claimed"] = 0
    if provisional == 0:
        await post_entry(tx, f"dispute_{dispute['status']}", books, reference=dispute["uuid"])
        return
    card, holder = await holder_leg(tx, purchase, -provisional, closed_to_account=True)
    owed = await owed_beyond(tx, holder)
    legs = [holder, *books]
    if owed and holder.book is None:
        paid = -provisional + owed
        legs = [
            Leg(holder.currency, paid, holder.account, holder.card, holder.book),
            book_leg(SystemBook.CARDHOLDER_RECEIVABLES, currency, -owed),
            *books,
        ]
    row = credit_row(purchase, "dispute_provisional_reversal", provisional, "", now)
    row.update(
        card_uuid=card, direction="debit", shortfall=owed if holder.book is None else 0,
        description=_DESCRIPTIONS["dispute_provisional_reversal"],
    )  # fmt: skip
    await insert_transactions(tx, [row])
    await post_entry(tx, "dispute_provisional_reversal", legs, reference=row["uuid"])
