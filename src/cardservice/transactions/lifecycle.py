"""The purchase state machine (docs/transactions.md, "Lifecycle").

pending → completed (a final capture, or captures that took the whole hold) | reversed
(reverse, or the expiry sweep); pending stays pending after a capture with `final: false`
while something is still held; completed → refunded (refund, full or in parts; never more
than is left once a won dispute credited part of it back). Anything else is
`invalid_transition`.

A purchase's `amount` is what the card pays for it: while pending, what is held plus what
was captured; `authorized_amount` is the authorization plus its increments;
`captured_amount` what captures moved from the `holds` book to `merchants`. A final capture
of less than the hold releases the rest to the card (`amount` becomes `captured_amount`); a
capture of more (tips) takes the difference from the card, up to 20 % above
`authorized_amount` in all. A foreign-currency purchase is captured in the merchant's
currency, each capture at its own rate: `merchant_amount` and `merchant_captured_amount`
move as `amount` and `captured_amount` do, and a capture takes its share of the hold.

Every transition takes its locks in the global order (docs/ledger.md, "Lock order"): the
purchase's account, then its card, then the transaction row; so concurrent calls on one
purchase are answered one after the other, only one of two racing transitions wins, and no
transition can wait in a cycle with an authorization or a purchase on the same account.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace
from datetime import datetime
from decimal import Decimal
from typing import Any

from cardservice.db.sql import Tx, as_uuid
from cardservice.errors import RuleViolation, ValidationFailed
from cardservice.ledger.entries import (
    InsufficientFunds,
    Leg,
    SystemBook,
    account_leg,
    book_leg,
    card_leg,
    post_entry,
)
from cardservice.ledger.minor_units import converted
from cardservice.models.base import utcnow
from cardservice.transactions import locks, repository
from cardservice.transactions.repository import credit_row, insert_transactions, payee


class InvalidTransition(RuleViolation):
    code, message = "invalid_transition", "The transaction cannot make this transition."


class CaptureTooLarge(RuleViolation):
    code, message = (
        "capture_exceeds_authorization",
        "Captures cannot exceed the authorized amount by more than 20 %.",
    )


class RefundTooLarge(RuleViolation):
    code, message = "refund_exceeds_amount", "A refund cannot return more than was taken."


OVER_CAPTURE_PERCENT = 20  # a capture may exceed the authorization by this much (tips)


async def holder_leg(
    tx: Tx, purchase: dict[str, Any], amount: int, *, closed_to_account: bool = False
) -> tuple[uuid.UUID, Leg]:
    """Where money a purchase gives back goes (docs/operations.md#running-a-program), and its leg:
    the purchase's card, or the card that replaced it — its account when that replacement is closed
    (its balance went there too), or, with `closed_to_account` (a refund, a dispute credit), when
    the card itself is closed. The account's lock, the caller's, keeps the cards from changing."""
    card, status = await payee(tx, purchase["card_uuid"])
    # a stand-in the card paid none of (docs/network.md#the-network-interface-iso-8583)
    if not await card_holds(tx, purchase):
        return card, book_leg(SystemBook.CARDHOLDER_RECEIVABLES, purchase["currency"], amount)
    replaced = card != as_uuid(purchase["card_uuid"])
    if status == "closed" and (replaced or closed_to_account):
        return card, account_leg(purchase["account_uuid"], purchase["currency"], amount)
    return card, card_leg(card, purchase["currency"], amount)


async def credited_amount(tx: Tx, purchase_uuid: uuid.UUID) -> int:
    """What disputes of the purchase credited back (0 or one `dispute_credit`)."""
    return await repository.credited(tx, purchase_uuid)


async def locked_transaction(tx: Tx, transaction_uuid: uuid.UUID) -> dict[str, Any]:
    """The transaction row, locked, as a dict of its columns (plus `user_uuid`). The caller
    holds its account's and card's locks already."""
    transaction = await locks.locked_purchase(tx, transaction_uuid)
    assert transaction is not None, "a transaction is never deleted"
    return transaction


def require_status(transaction: dict[str, Any], allowed: str) -> None:
    """Refuse the transition unless the transaction is a card purchase in status `allowed`."""
    if transaction["type"] != "card_purchase" or transaction["status"] != allowed:
        raise InvalidTransition(
            f"A {transaction['status']} {transaction['type']} cannot make this transition."
        )


async def locked_purchase(
    tx: Tx, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID, allowed: str
) -> dict[str, Any]:
    """The user's purchase in status `allowed`, with its account, card and row locked."""
    purchase, _card_status = await locks.lock_purchase(tx, user_uuid, transaction_uuid)
    require_status(purchase, allowed)
    return purchase


async def card_holds(tx: Tx, purchase: dict[str, Any]) -> bool:
    """False for a stand-in booked in a currency its card does not hold (no rate converted
    it, docs/network.md#the-network-interface-iso-8583): the card paid none of it, so nothing of it
    moves to or from the card — what goes back repays `cardholder_receivables`, and the card cannot
    pay an over-capture."""
    if not purchase["stand_in"] or purchase["merchant_currency"] is not None:
        return True
    return bool(await repository.card_currency(tx, purchase["card_uuid"]) == purchase["currency"])


async def _set_status(tx: Tx, purchase: dict[str, Any], status: str, now: datetime) -> None:
    purchase["status"], purchase["updated_at"] = status, now
    await repository.set_status(tx, purchase["uuid"], status, purchase["refunded_amount"], now)


async def _set_hold(
    tx: Tx, purchase: dict[str, Any], amount: int, captured: int, now: datetime
) -> None:
    """The purchase's new amount and captured amount; pending while something stays held.
    A foreign purchase's `merchant_amount` follows `amount`: once nothing is held any more it
    is what was captured in the merchant's currency (`merchant_captured_amount`)."""
    status = "pending" if amount > captured else "completed"
    purchase.update(status=status, amount=amount, captured_amount=captured, updated_at=now)
    if status == "completed" and purchase["merchant_currency"] is not None:
        purchase["merchant_amount"] = purchase["merchant_captured_amount"]
    await repository.set_hold(
        tx,
        purchase["uuid"],
        status,
        amount,
        captured,
        now,
        purchase["merchant_amount"],
        purchase["merchant_captured_amount"],
        purchase["rate"],
    )


def capture_limit(purchase: dict[str, Any]) -> int:
    """The most all captures of a purchase may take: its authorization plus 20 %."""
    return int(purchase["authorized_amount"]) * (100 + OVER_CAPTURE_PERCENT) // 100


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


async def add_shortfall(tx: Tx, purchase: dict[str, Any], owed: int) -> None:
    """The purchase's cardholder owes `owed` more (`cardholder_receivables`)."""
    purchase["shortfall"] = purchase.get("shortfall", 0) + owed
    await repository.set_shortfall(tx, purchase["uuid"], purchase["shortfall"])


async def _within_limits(tx: Tx, purchase: dict[str, Any], taken: Capture) -> None:
    """A capture asked for online stays within 20 % above the authorization, and a card that
    holds nothing in the purchase's currency cannot pay beyond its hold."""
    if taken.amount > taken.from_hold and not await card_holds(tx, purchase):
        raise InsufficientFunds()  # the card holds nothing in this currency to pay it with
    if purchase["captured_amount"] + taken.amount > capture_limit(purchase):
        room = capture_limit(purchase) - purchase["captured_amount"]
        raise CaptureTooLarge(errors={"amount": [f"at most {room} minor units may be captured"]})


@dataclass(frozen=True, slots=True)
class Capture:
    """One capture in the card's currency: `amount` goes to the merchant, `from_hold` is the
    part of the hold it takes (the card pays or gets back the difference)."""

    amount: int
    from_hold: int


def _domestic_capture(
    purchase: dict[str, Any], amount: int | None, rate: Decimal | None
) -> Capture:
    """A capture in the card's own currency: `amount` (default: all that is held) takes as
    much of the hold as it can."""
    if rate is not None:
        raise ValidationFailed(errors={"rate": ["only a foreign-currency purchase has one"]})
    held = purchase["amount"] - purchase["captured_amount"]
    amount = held if amount is None else amount
    return Capture(amount, min(amount, held))


def _foreign_capture(purchase: dict[str, Any], amount: int | None, rate: Decimal | None) -> Capture:
    """A foreign-currency purchase's capture: `amount` is in the merchant's currency
    (default: all the merchant still holds), converted at `rate` (default: the purchase's
    `rate`, the authorization's or the last capture's), which the purchase then shows. It
    takes its share of the hold, `held × amount / merchant held` rounded down (all of it
    when it captures what the merchant still holds, or more); the merchant-currency
    counterparts move in `purchase` (written by `_set_hold`)."""
    rate = rate if rate is not None else Decimal(purchase["rate"])
    held = purchase["amount"] - purchase["captured_amount"]
    merchant_held = purchase["merchant_amount"] - purchase["merchant_captured_amount"]
    merchant = merchant_held if amount is None else amount
    share = held if merchant >= merchant_held else held * merchant // merchant_held
    purchase["rate"] = str(rate)
    purchase["merchant_captured_amount"] += merchant
    return Capture(converted(merchant, rate), share)


async def capture(
    tx: Tx,
    user_uuid: uuid.UUID,
    transaction_uuid: uuid.UUID,
    amount: int | None = None,
    final: bool = True,
    now: datetime | None = None,
    rate: Decimal | None = None,
    presented: bool = False,
) -> dict[str, Any]:
    """Capture `amount` (default: all that is held) of a pending purchase, in one entry.

    Within the hold: `holds` → `merchants`; when `final`, the rest of the hold goes back to
    the card in the same entry. Beyond it (tips): the whole hold plus the difference from the
    card, while all captures stay within `capture_limit` (`capture_exceeds_authorization`);
    a card that cannot pay the difference refuses it (`insufficient_funds`, nothing changed).
    A foreign-currency purchase's capture is in the merchant's currency, at the purchase's
    rate or `rate`; what it converts to differs from the share of the hold it takes when the
    rate moved, and the card pays or gets back the difference in the same entry
    (`_foreign_capture`).

    A `presented` capture (a clearing file's presentment, docs/network.md#clearing-files) is never
    refused: no limit above the authorization, and what the card cannot pay of it is booked to
    `cardholder_receivables` and added to the purchase's `shortfall`.
    """
    purchase = await locked_purchase(tx, user_uuid, transaction_uuid, "pending")
    held = purchase["amount"] - purchase["captured_amount"]
    foreign = purchase["merchant_currency"] is not None
    taken = (_foreign_capture if foreign else _domestic_capture)(purchase, amount, rate)
    if not presented:
        await _within_limits(tx, purchase, taken)
    released = held - taken.from_hold if final else 0
    captured = purchase["captured_amount"] + taken.amount
    paid = purchase["amount"] - released - taken.from_hold + taken.amount
    await _set_hold(tx, purchase, paid, captured, now or utcnow())
    currency = purchase["currency"]
    repaid = min(purchase.get("shortfall", 0), released)  # a stand-in's: receivables first
    back = released - repaid + taken.from_hold - taken.amount
    _card, holder = await holder_leg(tx, purchase, back)  # a replaced card's: its replacement
    owed = await owed_beyond(tx, holder) if presented else 0
    if owed:
        holder = replace(holder, amount=holder.amount + owed)
        await add_shortfall(tx, purchase, owed)
    await post_entry(
        tx,
        "card_purchase_captured",
        [
            holder,
            book_leg(SystemBook.CARDHOLDER_RECEIVABLES, currency, repaid - owed),
            book_leg(SystemBook.HOLDS, currency, -(taken.from_hold + released)),
            book_leg(SystemBook.MERCHANTS, currency, taken.amount),
        ],
        reference=purchase["uuid"],
    )
    return purchase


async def settle(
    tx: Tx, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID, now: datetime | None = None
) -> dict[str, Any]:
    """pending → completed: the whole hold is captured."""
    return await capture(tx, user_uuid, transaction_uuid, now=now)


async def release(tx: Tx, purchase: dict[str, Any], now: datetime) -> None:
    """Give a locked pending purchase's hold back to the card (to its replacement when the
    card was replaced, docs/operations.md#running-a-program). Nothing captured yet: it is
    reversed, its fee back too; after partial captures the captured part stands (the purchase
    is completed at what was captured, the fee kept)."""
    held = purchase["amount"] - purchase["captured_amount"]
    currency, fee = purchase["currency"], purchase["fee"]
    if purchase["captured_amount"]:
        await _set_hold(tx, purchase, purchase["captured_amount"], purchase["captured_amount"], now)
        fee = 0
    else:
        await _set_status(tx, purchase, "reversed", now)
    # a stand-in's shortfall was never the card's: it goes back to the receivables book
    repaid = min(purchase.get("shortfall", 0), held + fee)
    _card, holder = await holder_leg(tx, purchase, held + fee - repaid)  # or its replacement
    await post_entry(
        tx,
        "card_purchase_reversed",
        [
            holder,
            book_leg(SystemBook.CARDHOLDER_RECEIVABLES, currency, repaid),
            book_leg(SystemBook.HOLDS, currency, -held),
            book_leg(SystemBook.FEES, currency, -fee),
        ],
        reference=purchase["uuid"],
    )


async def reverse(
    tx: Tx, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID, now: datetime | None = None
) -> dict[str, Any]:
    """pending → reversed: the card gets the hold and the fee back (`release`)."""
    purchase = await locked_purchase(tx, user_uuid, transaction_uuid, "pending")
    await release(tx, purchase, now or utcnow())
    return purchase


async def refund(
    tx: Tx,
    user_uuid: uuid.UUID,
    transaction_uuid: uuid.UUID,
    amount: int | None = None,
    now: datetime | None = None,
    channel: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """completed → refunded (or partly): returns `amount` (default: what is left) to the card
    as a `card_refund` transaction; never more than the purchase took (`refund_exceeds_amount`,
    also for a purchase refunded in full: so concurrent refunds over the limit are refused as
    one alone is). `channel`: the
    credit's `channel` and `network` columns when another channel than the sandbox asks."""
    now = now or utcnow()
    purchase, _card_status = await locks.lock_purchase(tx, user_uuid, transaction_uuid)
    if purchase["status"] != "refunded":  # refunded in full: nothing is left, any refund
        require_status(purchase, "completed")  # exceeds it, whoever refunded it first
    credited = await credited_amount(tx, purchase["uuid"])  # a won dispute gave it back
    remaining = purchase["amount"] - purchase["refunded_amount"] - credited
    amount = remaining if amount is None else amount
    if not 0 < amount <= remaining:
        raise RefundTooLarge(errors={"amount": [f"at most {remaining} minor units remain"]})
    purchase["refunded_amount"] += amount
    refunded = purchase["refunded_amount"] == purchase["amount"]
    await _set_status(tx, purchase, "refunded" if refunded else "completed", now)
    credit = credit_row(purchase, "card_refund", amount, "Refund", now) | (channel or {})
    # a replaced card's refund goes to its replacement; a closed card's to its account
    credit["card_uuid"], holder = await holder_leg(tx, purchase, amount, closed_to_account=True)
    await insert_transactions(tx, [credit])
    await post_entry(
        tx,
        "card_refund",
        [
            holder,
            book_leg(SystemBook.MERCHANTS, purchase["currency"], -amount),
        ],
        reference=credit["uuid"],
    )
    return purchase
