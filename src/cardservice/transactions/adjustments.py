"""What a card network asks beyond the sandbox's transitions
(docs/network.md#the-network-interface-iso-8583, docs/network.md#clearing-files): a hold shrunk to
what stays authorized (a partial reversal), a refund with no purchase to name (a credit to the
card), and a captured purchase presented again at another amount (the difference).

Locks in the global order (docs/ledger.md): the account, then the card, then the row.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import datetime
from decimal import Decimal
from typing import Any

import orjson

from cardservice.db.sql import Tx, as_uuid
from cardservice.errors import CardNotFound, RuleViolation
from cardservice.ledger import SystemBook, book_leg, card_leg, post_entry
from cardservice.ledger.minor_units import converted
from cardservice.transactions import holds, lifecycle, repository
from cardservice.transactions.holds import require_status
from cardservice.transactions.locks import lock_card, lock_card_account, lock_purchase
from cardservice.transactions.records import Purchase
from cardservice.transactions.repository import insert_transactions, transaction_row


class CreditCurrencyMismatch(RuleViolation):
    code, message = "currency_not_supported", "A credit is made in the card's currency."


def _released_by(purchase: Purchase, stays: int) -> tuple[int, int | None]:
    """What of the hold goes back when `stays` (the merchant's currency) stays authorized,
    and the purchase's new merchant amount (a foreign one's)."""
    if purchase.merchant_currency is None:
        return max(0, purchase.amount - max(stays, purchase.captured_amount)), None
    assert purchase.merchant_amount is not None and purchase.merchant_captured_amount is not None
    merchant_held = purchase.merchant_amount - purchase.merchant_captured_amount
    stays_held = max(0, stays - purchase.merchant_captured_amount)
    if merchant_held <= 0 or stays_held >= merchant_held:
        return 0, purchase.merchant_amount
    kept = purchase.held * stays_held // merchant_held
    return purchase.held - kept, purchase.merchant_captured_amount + stays_held


async def shrink_hold(
    tx: Tx, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID, stays: int, now: datetime
) -> Purchase:
    """A pending purchase's authorization becomes `stays` (in the merchant's currency): the
    rest of the hold goes back to the card in one entry (the fee stands; `holds.void`,
    `reduced`). Nothing left and nothing captured: a whole reversal (the fee back too). A
    `stays` at or above the authorization changes nothing."""
    purchase, _ = await lock_purchase(tx, user_uuid, transaction_uuid)
    require_status(purchase, "pending")
    released, merchant_amount = _released_by(purchase, stays)
    if released <= 0:
        return purchase
    if released == purchase.held and stays == 0:
        return await holds.void(tx, purchase, "reversed", now)
    return await holds.void(tx, purchase, "reduced", now, keep=(released, merchant_amount))


async def credit_card(
    tx: Tx,
    user_uuid: uuid.UUID,
    card_uuid: uuid.UUID,
    amount: int,
    currency: str,
    merchant: dict[str, str | None],
    now: datetime,
    network: dict[str, str | None] | None = None,
    *,
    channel: str = "iso8583",
    clearing: str | None = None,
) -> dict[str, Any]:
    """A refund naming no purchase: `amount` from the `merchants` book to the card, as a
    completed `card_refund` credit (of `channel`; a clearing file's shows its record,
    `clearing`) in one entry. Only in the card's currency (`currency_not_supported`)."""
    account = await lock_card_account(tx, user_uuid, card_uuid)
    card = await lock_card(tx, card_uuid) if account is not None else None
    if card is None:
        raise CardNotFound()
    if card["currency"] != currency:
        raise CreditCurrencyMismatch()
    credit = transaction_row(
        user_uuid=user_uuid,
        account_uuid=as_uuid(card["account_uuid"]),
        card_uuid=card_uuid,
        type="card_refund",
        status="completed",
        direction="credit",
        amount=amount,
        currency=currency,
        description="Refund",
        created_at=now,
        updated_at=now,
        channel=channel,
        network=None if network is None else orjson.dumps(network).decode(),
        clearing=clearing,
        **{f"merchant_{key}": value for key, value in merchant.items()},
    )
    await insert_transactions(tx, [credit])
    await post_entry(
        tx,
        "card_refund",
        [card_leg(card_uuid, currency, amount), book_leg(SystemBook.MERCHANTS, currency, -amount)],
        reference=credit["uuid"],
    )
    return credit


def _presented_in_card_currency(purchase: Purchase, presented: int) -> tuple[Purchase, int]:
    """What a presentment of `presented` (the merchant's currency for a foreign purchase,
    converted at the purchase's rate) comes to in the card's currency, and the purchase with
    its merchant amounts at what was presented."""
    if purchase.merchant_currency is None:
        return purchase, presented
    assert purchase.rate is not None, "a foreign purchase has its rate"
    rate = Decimal(purchase.rate)
    purchase = replace(purchase, merchant_amount=presented, merchant_captured_amount=presented)
    return purchase, converted(presented, rate)


async def recapture(
    tx: Tx, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID, presented: int, now: datetime
) -> tuple[Purchase, int]:
    """A completed purchase presented at another amount than it captured
    (docs/network.md#clearing-files): the difference moves between the card and `merchants` in one
    entry, and the purchase's `amount` and `captured_amount` become what was presented. More is
    taken from the card as far as it can pay, the rest booked to `cardholder_receivables`
    (`shortfall`); less goes back to the card (receivables first, for a purchase its cardholder owes
    on), never below what was refunded or credited. Returns the purchase and the captured amount
    before."""
    purchase, _ = await lock_purchase(tx, user_uuid, transaction_uuid)
    require_status(purchase, "completed")
    before = purchase.captured_amount
    purchase, in_card_currency = _presented_in_card_currency(purchase, presented)
    difference = in_card_currency - before
    credited = await lifecycle.credited_amount(tx, purchase.uuid)
    if purchase.amount + difference < purchase.refunded_amount + credited:
        raise lifecycle.RefundTooLarge(
            errors={"amount": ["less than was refunded or credited back already"]}
        )
    purchase = replace(
        purchase, amount=purchase.amount + difference, captured_amount=before + difference,
        updated_at=now,
    )  # fmt: skip
    await repository.set_holds(tx, [purchase])
    repaid = min(purchase.shortfall, max(0, -difference))
    _card, holder = await holds.holder_leg(tx, purchase, -difference - repaid)
    owed = await holds.owed_beyond(tx, holder)
    if owed:
        holder = replace(holder, amount=holder.amount + owed)
        purchase = await holds.add_shortfall(tx, purchase, owed)
    currency = purchase.currency
    await post_entry(
        tx,
        "card_purchase_captured",
        [
            holder,
            book_leg(SystemBook.CARDHOLDER_RECEIVABLES, currency, repaid - owed),
            book_leg(SystemBook.MERCHANTS, currency, difference),
        ],
        reference=purchase.uuid,
    )
    return purchase, before
