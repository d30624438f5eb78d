"""Holds (docs/ledger.md#holds): a pending purchase's money in the `holds` book, first-class
as TigerBeetle's pending transfer — placed once, then posted or voided, each in one balanced
entry. This module is the only one that writes a `holds` leg:

- `place`: an approval puts the amount on hold (the card pays `holds`, the fee to `fees`);
  an increment raises it (`card_purchase_incremented`); a force post is placed and posted at
  once (the card pays `merchants`: no hold is left);
- `post`: a capture moves part or all of the hold to `merchants`; `final` gives the rest
  back in the same entry; beyond the hold (tips) the card pays the difference;
- `void`, with its reason: the hold goes back to the card (`reversed`: a reversal; `expired`:
  the sweep; `closed`: its card closed) — nothing captured, the fee too, and the purchase is
  `reversed`; after partial captures it is completed at what was captured — or part of it
  goes back and the rest stays held (`reduced`: a partial reversal).

Checked here, whichever use case calls: a hold resolves once (`post` and `void` refuse a
purchase that is not pending: `invalid_transition`, nothing written), and what all posts of
a purchase take stays within its authorization plus 20 % (`capture_exceeds_authorization`),
unless a clearing file presented it (never refused; what the card cannot pay is its
cardholder's `shortfall`). Money a hold gives back goes to the purchase's card, or the card
that replaced it (`holder_leg`). The caller holds the purchase's account, card and row locks
(docs/ledger.md, "Lock order").
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from cardservice.db.sql import Insert, Tx, as_uuid
from cardservice.errors import RuleViolation
from cardservice.ledger import (
    Entry,
    InsufficientFunds,
    Leg,
    Posted,
    SystemBook,
    account_leg,
    book_leg,
    card_leg,
    post_entries,
    post_entry,
)
from cardservice.transactions import repository
from cardservice.transactions.records import Purchase
from cardservice.transactions.repository import payee

OVER_CAPTURE_PERCENT = 20  # a capture may exceed the authorization by this much (tips)

# why a hold goes back: the entry's kind says `reduced` for a part, `reversed` for all of it
VoidReason = Literal["reversed", "expired", "closed", "reduced"]


class InvalidTransition(RuleViolation):
    code, message = "invalid_transition", "The transaction cannot make this transition."


class CaptureTooLarge(RuleViolation):
    code, message = (
        "capture_exceeds_authorization",
        "Captures cannot exceed the authorized amount by more than 20 %.",
    )


@dataclass(frozen=True, slots=True)
class Holder:
    """A purchase's card as read under its lock (a set's, `lock_held`): where money the
    purchase gives back goes when the card was not replaced (`holder_leg` reads no row)."""

    status: str
    currency: str
    replaced: bool
    card_type: str


@dataclass(frozen=True, slots=True)
class Post:
    """A post decided (`posting`), not written yet: the purchase after it and its entry."""

    purchase: Purchase
    entry: Entry
    # its holder pays part of it (beyond the hold) and it is presented: what it owes was
    # read from the holder's balance as written
    read_balance: bool = False


@dataclass(frozen=True, slots=True)
class Capture:
    """One capture in the card's currency: `amount` goes to the merchant, `from_hold` is the
    part of the hold it takes (the card pays or gets back the difference)."""

    amount: int
    from_hold: int


HELD_TYPES = frozenset({"card_purchase", "atm_withdrawal"})  # an authorization's hold


async def lock_held(
    tx: Tx, purchases: Sequence[uuid.UUID]
) -> tuple[dict[uuid.UUID, Purchase], dict[uuid.UUID, Holder]]:
    """The purchases (any status) with their accounts, cards and rows locked, in the lock
    order (`repository.lock_held`), and their cards (by uuid) as `Holder`s."""
    cards, rows = await repository.lock_held(tx, purchases)
    holders = {
        card: Holder(str(row["status"]), str(row["currency"]), row["replaced_by"] is not None,
                     str(row["card_type"]))
        for row in cards
        if (card := as_uuid(row["uuid"])) is not None
    }  # fmt: skip
    held = [Purchase.of({name: row[name] for name in repository.HELD_FIELDS}) for row in rows]
    return {purchase.uuid: purchase for purchase in held}, holders


def require_status(purchase: Purchase, allowed: str) -> None:
    """Refuse the transition unless the transaction is a card purchase (or an ATM
    withdrawal: `HELD_TYPES`) in status `allowed`."""
    if purchase.type not in HELD_TYPES or purchase.status != allowed:
        raise InvalidTransition(f"A {purchase.status} {purchase.type} cannot make this transition.")


def capture_limit(purchase: Purchase) -> int:
    """The most all captures of a purchase may take: its authorization plus 20 %."""
    return purchase.authorized_amount * (100 + OVER_CAPTURE_PERCENT) // 100


async def card_holds(tx: Tx, purchase: Purchase, known: Holder | None = None) -> bool:
    """False for a stand-in booked in a currency its card does not hold (no rate converted
    it, docs/network.md#the-network-interface-iso-8583): the card paid none of it, so nothing of it
    moves to or from the card — what goes back repays `cardholder_receivables`, and the card cannot
    pay an over-capture. `known`: the card as read under its lock (no read here)."""
    if not purchase.stand_in or purchase.merchant_currency is not None:
        return True
    if known is not None:
        return known.currency == purchase.currency
    return bool(await repository.card_currency(tx, purchase.card_uuid) == purchase.currency)


async def holder_leg(
    tx: Tx,
    purchase: Purchase,
    amount: int,
    *,
    closed_to_account: bool = False,
    known: Holder | None = None,
) -> tuple[uuid.UUID, Leg]:
    """Where money a purchase gives back goes (docs/operations.md#running-a-program), and its leg:
    the purchase's card, or the card that replaced it — its account when that replacement is closed
    (its balance went there too), or, with `closed_to_account` (a refund, a dispute credit), when
    the card itself is closed. The account's lock, the caller's, keeps the cards from changing.
    `known`: the purchase's card as read under its lock (no row read unless it was replaced)."""
    assert purchase.card_uuid is not None, "a card purchase has its card"
    if known is not None and not known.replaced:
        card, status = purchase.card_uuid, known.status
    else:
        card, status = await payee(tx, purchase.card_uuid)
    # a stand-in the card paid none of (docs/network.md#the-network-interface-iso-8583)
    if not await card_holds(tx, purchase, known):
        return card, book_leg(SystemBook.CARDHOLDER_RECEIVABLES, purchase.currency, amount)
    replaced = card != purchase.card_uuid
    if status == "closed" and (replaced or closed_to_account):
        return card, account_leg(purchase.account_uuid, purchase.currency, amount)
    return card, card_leg(card, purchase.currency, amount)


async def owed_beyond(tx: Tx, leg: Leg) -> int:
    """What a leg that takes money cannot take of it: beyond its card's or account's balance
    (all of it from a book: the card holds nothing in that currency). 0 for a leg that pays
    in. The caller holds the holder's lock."""
    if leg.amount >= 0:
        return 0
    if leg.card is not None:
        balance = await repository.card_balance(tx, leg.card)
    elif leg.account is not None:
        balance = await repository.account_balance(tx, leg.account)
    else:
        balance = 0
    return max(0, -leg.amount - balance)


async def add_shortfall(tx: Tx, purchase: Purchase, owed: int) -> Purchase:
    """The purchase's cardholder owes `owed` more (`cardholder_receivables`)."""
    purchase = replace(purchase, shortfall=purchase.shortfall + owed)
    await repository.set_shortfall(tx, purchase.uuid, purchase.shortfall)
    return purchase


async def place(
    tx: Tx,
    purchase_uuid: uuid.UUID,
    card_uuid: uuid.UUID,
    currency: str,
    amount: int,
    fee: int,
    *,
    kind: str,
    shortfall: int = 0,
    posted: bool = False,
    insert: Insert | None = None,
    balance: int | None = None,
) -> Posted:
    """One entry: the card puts `amount` on hold (`posted`, a force post: pays it to the
    merchants' book, as a capture does; 0: a decline's fee alone) and pays `fee` to the fee
    book, in the card's
    currency; what the card cannot pay of it (`shortfall`, a stand-in's) is paid by the
    `cardholder_receivables` book instead. `insert`: the transaction's row, written with it
    (one statement on PostgreSQL). `balance`: the card's, as the unit locked it (the entry is
    then written with the COMMIT: `post_entry`'s `held`). Returns the card's new balance."""
    legs = placed_legs(card_uuid, currency, amount, fee, shortfall, posted)
    held = None if balance is None else {card_uuid: balance}
    return await post_entry(tx, kind, legs, reference=purchase_uuid, insert=insert, held=held)


def placed_legs(
    card_uuid: uuid.UUID, currency: str, amount: int, fee: int, shortfall: int, posted: bool
) -> list[Leg]:
    """`place`'s legs (the force posts' of a set, written together, are these)."""
    return [
        card_leg(card_uuid, currency, -(amount + fee - shortfall)),
        book_leg(SystemBook.CARDHOLDER_RECEIVABLES, currency, -shortfall),
        book_leg(SystemBook.MERCHANTS if posted else SystemBook.HOLDS, currency, amount),
        book_leg(SystemBook.FEES, currency, fee),
    ]


async def _within_limits(tx: Tx, purchase: Purchase, taken: Capture, known: Holder | None) -> None:
    """A capture asked for online stays within 20 % above the authorization, and a card that
    holds nothing in the purchase's currency cannot pay beyond its hold."""
    if taken.amount > taken.from_hold and not await card_holds(tx, purchase, known):
        raise InsufficientFunds()  # the card holds nothing in this currency to pay it with
    if purchase.captured_amount + taken.amount > capture_limit(purchase):
        room = capture_limit(purchase) - purchase.captured_amount
        raise CaptureTooLarge(errors={"amount": [f"at most {room} minor units may be captured"]})


def _held(purchase: Purchase, amount: int, captured: int, now: datetime) -> Purchase:
    """The purchase with its new amount and captured amount; pending while something stays
    held. A foreign purchase's `merchant_amount` follows `amount`: once nothing is held any
    more it is what was captured in the merchant's currency (`merchant_captured_amount`)."""
    status = "pending" if amount > captured else "completed"
    purchase = replace(
        purchase, status=status, amount=amount, captured_amount=captured, updated_at=now
    )
    if status == "completed" and purchase.merchant_currency is not None:
        purchase = replace(purchase, merchant_amount=purchase.merchant_captured_amount)
    return purchase


async def _set_hold(
    tx: Tx, purchase: Purchase, amount: int, captured: int, now: datetime
) -> Purchase:
    """`_held`, written."""
    purchase = _held(purchase, amount, captured, now)
    await repository.set_holds(tx, [purchase])
    return purchase


async def post(
    tx: Tx, purchase: Purchase, taken: Capture, now: datetime, *, final: bool, presented: bool
) -> Purchase:
    """Post `taken` of a pending purchase's hold (`posting`), written at once (`write_posts`,
    a set of one). Returns the purchase after it."""
    decided = await posting(tx, purchase, taken, now, final=final, presented=presented)
    await write_posts(tx, [decided])
    return decided.purchase


async def posting(
    tx: Tx,
    purchase: Purchase,
    taken: Capture,
    now: datetime,
    *,
    final: bool,
    presented: bool,
    known: Holder | None = None,
) -> Post:
    """Decide the post of `taken` of a pending purchase's hold, in one entry: within the hold
    `holds` → `merchants`; `final`: the rest of the hold back to the card; beyond it (tips)
    the card pays the difference (a card that cannot: `insufficient_funds`, nothing
    changed). A `presented` post (a clearing file's) is never refused: what the card cannot
    pay is added to the purchase's `shortfall` (read from its balance as written: a set
    writes what it decided before first, `Post.read_balance`).
    `purchase` carries what the capture changed of its merchant's amounts and rate;
    `known`: its card as read under the lock. Nothing is written (`write_posts`)."""
    require_status(purchase, "pending")
    if not presented:
        await _within_limits(tx, purchase, taken, known)
    held = purchase.held
    released = held - taken.from_hold if final else 0
    captured = purchase.captured_amount + taken.amount
    paid = purchase.amount - released - taken.from_hold + taken.amount
    purchase = _held(purchase, paid, captured, now)
    currency = purchase.currency
    repaid = min(purchase.shortfall, released)  # a stand-in's: receivables first
    back = released - repaid + taken.from_hold - taken.amount
    # a replaced card's: its replacement
    _card, holder = await holder_leg(tx, purchase, back, known=known)
    read_balance = presented and holder.amount < 0
    owed = await owed_beyond(tx, holder) if read_balance else 0
    if owed:
        holder = replace(holder, amount=holder.amount + owed)
        purchase = replace(purchase, shortfall=purchase.shortfall + owed)
    legs = [
        holder,
        book_leg(SystemBook.CARDHOLDER_RECEIVABLES, currency, repaid - owed),
        book_leg(SystemBook.HOLDS, currency, -(taken.from_hold + released)),
        book_leg(SystemBook.MERCHANTS, currency, taken.amount),
    ]
    entry = Entry("card_purchase_captured", legs, reference=purchase.uuid)
    return Post(purchase, entry, read_balance)


async def write_posts(tx: Tx, posts: Sequence[Post]) -> None:
    """Write decided posts together: their purchases' new amounts, status and shortfall (one
    statement on PostgreSQL), then their entries (`ledger.post_entries`: one statement)."""
    if not posts:
        return
    await repository.set_holds(tx, [decided.purchase for decided in posts])
    await post_entries(tx, [decided.entry for decided in posts])


async def void(
    tx: Tx,
    purchase: Purchase,
    reason: VoidReason,
    now: datetime,
    *,
    keep: tuple[int, int | None] | None = None,
) -> Purchase:
    """Give a pending purchase's hold back to the card (to its replacement when the card was
    replaced, docs/operations.md#running-a-program), in one entry. Whole: nothing captured
    yet, it is reversed, its fee back too; after partial captures the captured part stands
    (completed at what was captured, the fee kept). `keep` (`reduced`): what is released and
    the new merchant amount (a foreign one's) — the rest stays held and authorized, the fee
    stands. A stand-in's shortfall goes back to the receivables book first."""
    require_status(purchase, "pending")
    if keep is not None:
        return await _void_part(tx, purchase, *keep, now)
    held, fee = purchase.held, purchase.fee
    if purchase.captured_amount:
        captured = purchase.captured_amount
        purchase, fee = await _set_hold(tx, purchase, captured, captured, now), 0
    else:
        purchase = replace(purchase, status="reversed", updated_at=now)
        await repository.set_status(tx, purchase.uuid, "reversed", purchase.refunded_amount, now)
    repaid = min(purchase.shortfall, held + fee)
    _card, holder = await holder_leg(tx, purchase, held + fee - repaid)  # or its replacement
    currency = purchase.currency
    await post_entry(
        tx,
        "card_purchase_reversed",
        [
            holder,
            book_leg(SystemBook.CARDHOLDER_RECEIVABLES, currency, repaid),
            book_leg(SystemBook.HOLDS, currency, -held),
            book_leg(SystemBook.FEES, currency, -fee),
        ],
        reference=purchase.uuid,
    )
    return purchase


async def _void_part(
    tx: Tx, purchase: Purchase, released: int, merchant_amount: int | None, now: datetime
) -> Purchase:
    """`released` of the hold back to the card; the authorization shrinks with the amount."""
    amount = purchase.amount - released
    authorized = min(purchase.authorized_amount, amount)
    purchase = replace(
        purchase, amount=amount, authorized_amount=authorized, updated_at=now,
        merchant_amount=merchant_amount,
    )  # fmt: skip
    await repository.shrink_hold(tx, purchase.uuid, amount, authorized, merchant_amount, now)
    _card, holder = await holder_leg(tx, purchase, released)  # or its replacement
    await post_entry(
        tx,
        "card_purchase_reduced",
        [holder, book_leg(SystemBook.HOLDS, purchase.currency, -released)],
        reference=purchase.uuid,
    )
    return purchase
