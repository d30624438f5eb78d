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

The money of every transition moves through holds.py (`post`, `void`), which checks that a
hold resolves once and that captures stay within 20 % above the authorization; the purchase
is a `records.Purchase`, and each step returns the new one.

Every transition takes its locks in the global order (docs/ledger.md, "Lock order"): the
purchase's account, then its card, then the transaction row; so concurrent calls on one
purchase are answered one after the other, only one of two racing transitions wins, and no
transition can wait in a cycle with an authorization or a purchase on the same account.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import datetime
from decimal import Decimal

from cardservice.db.sql import Tx
from cardservice.errors import RuleViolation, ValidationFailed
from cardservice.ledger import SystemBook, book_leg, post_entry
from cardservice.ledger.minor_units import converted
from cardservice.models.base import utcnow
from cardservice.transactions import holds, locks, repository
from cardservice.transactions.holds import Capture, VoidReason, require_status
from cardservice.transactions.records import Purchase
from cardservice.transactions.repository import credit_row, insert_transactions


class RefundTooLarge(RuleViolation):
    code, message = "refund_exceeds_amount", "A refund cannot return more than was taken."


async def credited_amount(tx: Tx, purchase_uuid: uuid.UUID) -> int:
    """What disputes of the purchase credited back: a `dispute_credit`, and provisional
    credits not taken back (docs/disputes.md#money)."""
    return await repository.credited(tx, purchase_uuid)


async def locked_transaction(tx: Tx, transaction_uuid: uuid.UUID) -> Purchase:
    """The transaction row, locked (with `user_uuid`). The caller holds its account's and
    card's locks already."""
    transaction = await locks.locked_purchase(tx, transaction_uuid)
    assert transaction is not None, "a transaction is never deleted"
    return transaction


async def locked_purchase(
    tx: Tx, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID, allowed: str
) -> Purchase:
    """The user's purchase in status `allowed`, with its account, card and row locked."""
    purchase, _card_status = await locks.lock_purchase(tx, user_uuid, transaction_uuid)
    require_status(purchase, allowed)
    return purchase


def _domestic_capture(
    purchase: Purchase, amount: int | None, rate: Decimal | None
) -> tuple[Purchase, Capture]:
    """A capture in the card's own currency: `amount` (default: all that is held) takes as
    much of the hold as it can."""
    if rate is not None:
        raise ValidationFailed(errors={"rate": ["only a foreign-currency purchase has one"]})
    amount = purchase.held if amount is None else amount
    return purchase, Capture(amount, min(amount, purchase.held))


def _foreign_capture(
    purchase: Purchase, amount: int | None, rate: Decimal | None
) -> tuple[Purchase, Capture]:
    """A foreign-currency purchase's capture: `amount` is in the merchant's currency
    (default: all the merchant still holds), converted at `rate` (default: the purchase's
    `rate`, the authorization's or the last capture's), which the purchase then shows. It
    takes its share of the hold, `held × amount / merchant held` rounded down (all of it
    when it captures what the merchant still holds, or more); the merchant-currency
    counterparts move in the purchase returned (written by `holds.post`)."""
    assert purchase.merchant_amount is not None and purchase.merchant_captured_amount is not None
    assert purchase.rate is not None, "a foreign purchase has its rate"
    rate = rate if rate is not None else Decimal(purchase.rate)
    held = purchase.held
    merchant_held = purchase.merchant_amount - purchase.merchant_captured_amount
    merchant = merchant_held if amount is None else amount
    share = held if merchant >= merchant_held else held * merchant // merchant_held
    purchase = replace(
        purchase, rate=str(rate),
        merchant_captured_amount=purchase.merchant_captured_amount + merchant,
    )  # fmt: skip
    return purchase, Capture(converted(merchant, rate), share)


def capture_terms(
    purchase: Purchase, amount: int | None, rate: Decimal | None
) -> tuple[Purchase, Capture]:
    """What a capture of `amount` (default: all that is held; a foreign purchase's in the
    merchant's currency, at `rate` or the purchase's) takes of the hold, and the purchase
    with what it changed of its merchant's amounts and rate."""
    foreign = purchase.merchant_currency is not None
    return (_foreign_capture if foreign else _domestic_capture)(purchase, amount, rate)


async def presented_posting(
    tx: Tx, purchase: Purchase, amount: int, now: datetime, known: holds.Holder | None
) -> holds.Post:
    """A clearing file's presentment of `amount` of a pending purchase locked with its set
    (`holds.lock_held`): a final, presented capture (`capture`'s rules), decided, not written
    (`holds.write_posts`)."""
    purchase, taken = capture_terms(purchase, amount, None)
    return await holds.posting(tx, purchase, taken, now, final=True, presented=True, known=known)


async def capture(
    tx: Tx,
    user_uuid: uuid.UUID,
    transaction_uuid: uuid.UUID,
    amount: int | None = None,
    final: bool = True,
    now: datetime | None = None,
    rate: Decimal | None = None,
    presented: bool = False,
) -> Purchase:
    """Capture `amount` (default: all that is held) of a pending purchase, in one entry
    (`holds.post`: within the hold, `final` releasing the rest; beyond it, tips within
    `holds.capture_limit`, the card paying the difference).

    A foreign-currency purchase's capture is in the merchant's currency, at the purchase's
    rate or `rate`; what it converts to differs from the share of the hold it takes when the
    rate moved, and the card pays or gets back the difference in the same entry
    (`_foreign_capture`).

    A `presented` capture (a clearing file's presentment, docs/network.md#clearing-files) is never
    refused: no limit above the authorization, and what the card cannot pay of it is booked to
    `cardholder_receivables` and added to the purchase's `shortfall`.
    """
    purchase = await locked_purchase(tx, user_uuid, transaction_uuid, "pending")
    purchase, taken = capture_terms(purchase, amount, rate)
    return await holds.post(tx, purchase, taken, now or utcnow(), final=final, presented=presented)


async def reverse(
    tx: Tx,
    user_uuid: uuid.UUID,
    transaction_uuid: uuid.UUID,
    now: datetime | None = None,
    reason: VoidReason = "reversed",
) -> Purchase:
    """pending → reversed: the card gets the hold and the fee back (`holds.void`)."""
    purchase = await locked_purchase(tx, user_uuid, transaction_uuid, "pending")
    return await holds.void(tx, purchase, reason, now or utcnow())


async def refund(
    tx: Tx,
    user_uuid: uuid.UUID,
    transaction_uuid: uuid.UUID,
    amount: int | None = None,
    now: datetime | None = None,
    channel: dict[str, object] | None = None,
) -> Purchase:
    """completed → refunded (or partly): returns `amount` (default: what is left) to the card
    as a `card_refund` transaction; never more than the purchase took (`refund_exceeds_amount`,
    also for a purchase refunded in full: so concurrent refunds over the limit are refused as
    one alone is). `channel`: the
    credit's `channel` and `network` columns when another channel than the sandbox asks."""
    now = now or utcnow()
    purchase, _card_status = await locks.lock_purchase(tx, user_uuid, transaction_uuid)
    if purchase.status != "refunded":  # refunded in full: nothing is left, any refund
        require_status(purchase, "completed")  # exceeds it, whoever refunded it first
    credited = await credited_amount(tx, purchase.uuid)  # a won dispute gave it back
    remaining = purchase.amount - purchase.refunded_amount - credited
    amount = remaining if amount is None else amount
    if not 0 < amount <= remaining:
        raise RefundTooLarge(errors={"amount": [f"at most {remaining} minor units remain"]})
    refunded = purchase.refunded_amount + amount
    status = "refunded" if refunded == purchase.amount else "completed"
    purchase = replace(purchase, refunded_amount=refunded, status=status, updated_at=now)
    await repository.set_status(tx, purchase.uuid, status, refunded, now)
    credit = credit_row(purchase, "card_refund", amount, "Refund", now) | (channel or {})
    # a replaced card's refund goes to its replacement; a closed card's to its account
    credit["card_uuid"], holder = await holds.holder_leg(
        tx, purchase, amount, closed_to_account=True
    )
    await insert_transactions(tx, [credit])
    await post_entry(
        tx,
        "card_refund",
        [
            holder,
            book_leg(SystemBook.MERCHANTS, purchase.currency, -amount),
        ],
        reference=credit["uuid"],
    )
    return purchase
