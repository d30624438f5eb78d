"""The purchase state machine: pending → completed (settle) | reversed (reverse);
completed → refunded (refund, full or in parts; never more than is left once a won dispute
credited part of it back). Anything else is `invalid_transition`.

Every transition takes its locks in the global order (docs/ledger.md, "Lock order"): the
purchase's account, then its card, then the transaction row; so concurrent calls on one
purchase are answered one after the other, only one of two racing transitions wins, and no
transition can wait in a cycle with an authorization or a purchase on the same account.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from cardservice.disputes.service import credited_amount
from cardservice.errors import RuleViolation, TransactionNotFound
from cardservice.ledger.entries import SystemBook, book_leg, card_leg, post_entry
from cardservice.models.base import utcnow
from cardservice.sql import Tx, as_uuid
from cardservice.transactions.records import TRANSACTION_FIELDS, transaction_columns
from cardservice.transactions.rows import credit_row, insert_transactions


class InvalidTransition(RuleViolation):
    code, message = "invalid_transition", "The transaction cannot make this transition."


class RefundTooLarge(RuleViolation):
    code, message = "refund_exceeds_amount", "A refund cannot return more than was taken."


# Parameters: $1 transaction, $2 user.
_LOCK_ACCOUNT = """
SELECT t.card_uuid FROM transactions t JOIN accounts a ON a.uuid = t.account_uuid
WHERE t.uuid = $1 AND t.user_uuid = $2
FOR NO KEY UPDATE OF a"""
_LOCK_CARD = "SELECT uuid FROM cards WHERE uuid = $1 FOR NO KEY UPDATE"
_LOCK_TRANSACTION = (
    f"SELECT {transaction_columns('t')}, t.user_uuid FROM transactions t"  # noqa: S608
    " WHERE t.uuid = $1 FOR NO KEY UPDATE"
)
_SET_STATUS = (
    "UPDATE transactions SET status = $2, refunded_amount = $3, updated_at = $4 WHERE uuid = $1"
)


async def _locked_purchase(
    tx: Tx, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID, allowed: str
) -> dict[str, Any]:
    """The user's purchase in status `allowed`, with its account, card and row locked."""
    found = await tx.row(_LOCK_ACCOUNT, transaction_uuid, user_uuid)
    if found is None:
        raise TransactionNotFound()
    if found["card_uuid"] is not None:
        await tx.execute(_LOCK_CARD, found["card_uuid"])
    row = await tx.row(_LOCK_TRANSACTION, transaction_uuid)
    assert row is not None, "a transaction is never deleted"
    purchase = dict(zip((*TRANSACTION_FIELDS, "user_uuid"), row, strict=True))
    if purchase["type"] != "card_purchase" or purchase["status"] != allowed:
        raise InvalidTransition(
            f"A {purchase['status']} {purchase['type']} cannot make this transition."
        )
    for key in ("uuid", "card_uuid", "account_uuid", "user_uuid"):
        purchase[key] = as_uuid(purchase[key])
    return purchase


async def _set_status(tx: Tx, purchase: dict[str, Any], status: str, now: datetime) -> None:
    purchase["status"], purchase["updated_at"] = status, now
    await tx.execute(_SET_STATUS, purchase["uuid"], status, purchase["refunded_amount"], now)


async def settle(
    tx: Tx, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID, now: datetime | None = None
) -> dict[str, Any]:
    """pending → completed: the money already left the card at authorization."""
    purchase = await _locked_purchase(tx, user_uuid, transaction_uuid, "pending")
    await _set_status(tx, purchase, "completed", now or utcnow())
    return purchase


async def reverse(
    tx: Tx, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID, now: datetime | None = None
) -> dict[str, Any]:
    """pending → reversed: the card gets the amount and the fee back."""
    purchase = await _locked_purchase(tx, user_uuid, transaction_uuid, "pending")
    await _set_status(tx, purchase, "reversed", now or utcnow())
    amount, fee, currency = purchase["amount"], purchase["fee"], purchase["currency"]
    await post_entry(
        tx,
        "card_purchase_reversed",
        [
            card_leg(purchase["card_uuid"], currency, amount + fee),
            book_leg(SystemBook.MERCHANTS, currency, -amount),
            book_leg(SystemBook.FEES, currency, -fee),
        ],
        reference=purchase["uuid"],
    )
    return purchase


async def refund(
    tx: Tx,
    user_uuid: uuid.UUID,
    transaction_uuid: uuid.UUID,
    amount: int | None = None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """completed → refunded (or partly): returns `amount` (default: what is left) to the card
    as a `card_refund` transaction; never more than the purchase took."""
    now = now or utcnow()
    purchase = await _locked_purchase(tx, user_uuid, transaction_uuid, "completed")
    credited = await credited_amount(tx, purchase["uuid"])  # a won dispute gave it back
    remaining = purchase["amount"] - purchase["refunded_amount"] - credited
    amount = remaining if amount is None else amount
    if not 0 < amount <= remaining:
        raise RefundTooLarge(errors={"amount": [f"at most {remaining} minor units remain"]})
    purchase["refunded_amount"] += amount
    refunded = purchase["refunded_amount"] == purchase["amount"]
    await _set_status(tx, purchase, "refunded" if refunded else "completed", now)
    credit = credit_row(purchase, "card_refund", amount, "Refund", now)
    await insert_transactions(tx, [credit])
    await post_entry(
        tx,
        "card_refund",
        [
            card_leg(purchase["card_uuid"], purchase["currency"], amount),
            book_leg(SystemBook.MERCHANTS, purchase["currency"], -amount),
        ],
        reference=credit["uuid"],
    )
    return purchase
