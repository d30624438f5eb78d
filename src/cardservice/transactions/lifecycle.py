"""The purchase state machine: pending → completed (settle) | reversed (reverse);
completed → refunded (refund, full or in parts). Anything else is `invalid_transition`.

Every transition locks the transaction row first, so concurrent calls on one purchase are
answered one after the other and only one of two racing transitions wins.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.errors import NotFound, RuleViolation
from cardservice.ledger.entries import SystemBook, book_leg, card_leg, post_entry
from cardservice.models import Transaction
from cardservice.models.base import utcnow
from cardservice.sql import session_tx


class TransactionNotFound(NotFound):
    message = "Transaction not found"


class InvalidTransition(RuleViolation):
    code, message = "invalid_transition", "The transaction cannot make this transition."


class RefundTooLarge(RuleViolation):
    code, message = "refund_exceeds_amount", "A refund cannot return more than was taken."


async def _purchase(
    session: AsyncSession, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID, allowed: str
) -> Transaction:
    row = await session.scalar(
        select(Transaction)
        .where(Transaction.uuid == transaction_uuid, Transaction.user_uuid == user_uuid)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    if row is None:
        raise TransactionNotFound()
    if row.type != "card_purchase" or row.status != allowed:
        raise InvalidTransition(f"A {row.status} {row.type} cannot make this transition.")
    return row


async def settle(
    session: AsyncSession,
    user_uuid: uuid.UUID,
    transaction_uuid: uuid.UUID,
    now: datetime | None = None,
) -> Transaction:
    """pending → completed: the money already left the card at authorization."""
    row = await _purchase(session, user_uuid, transaction_uuid, "pending")
    row.status, row.updated_at = "completed", now or utcnow()
    await session.flush()
    return row


async def reverse(
    session: AsyncSession,
    user_uuid: uuid.UUID,
    transaction_uuid: uuid.UUID,
    now: datetime | None = None,
) -> Transaction:
    """pending → reversed: the card gets the amount and the fee back."""
    row = await _purchase(session, user_uuid, transaction_uuid, "pending")
    assert row.card_uuid is not None
    row.status, row.updated_at = "reversed", now or utcnow()
    await post_entry(
        await session_tx(session),
        "card_purchase_reversed",
        [
            card_leg(row.card_uuid, row.currency, row.amount + row.fee),
            book_leg(SystemBook.MERCHANTS, row.currency, -row.amount),
            book_leg(SystemBook.FEES, row.currency, -row.fee),
        ],
        reference=row.uuid,
    )
    await session.flush()
    return row


async def refund(
    session: AsyncSession,
    user_uuid: uuid.UUID,
    transaction_uuid: uuid.UUID,
    amount: int | None = None,
    now: datetime | None = None,
) -> Transaction:
    """completed → refunded (or partly): returns `amount` (default: what is left) to the card
    as a `card_refund` transaction; never more than the purchase took."""
    now = now or utcnow()
    row = await _purchase(session, user_uuid, transaction_uuid, "completed")
    assert row.card_uuid is not None
    remaining = row.amount - row.refunded_amount
    amount = remaining if amount is None else amount
    if not 0 < amount <= remaining:
        raise RefundTooLarge(errors={"amount": [f"at most {remaining} minor units remain"]})
    row.refunded_amount += amount
    row.status = "refunded" if row.refunded_amount == row.amount else "completed"
    row.updated_at = now
    credit = Transaction(
        user_uuid=row.user_uuid,
        account_uuid=row.account_uuid,
        card_uuid=row.card_uuid,
        type="card_refund",
        status="completed",
        direction="credit",
        amount=amount,
        currency=row.currency,
        fee=0,
        merchant_name=row.merchant_name,
        merchant_mcc=row.merchant_mcc,
        merchant_country=row.merchant_country,
        merchant_city=row.merchant_city,
        tag_slug=row.tag_slug,
        description="Refund",
        parent_uuid=row.uuid,
        created_at=now,
        updated_at=now,
    )
    session.add(credit)
    await session.flush()
    await post_entry(
        await session_tx(session),
        "card_refund",
        [
            card_leg(row.card_uuid, row.currency, amount),
            book_leg(SystemBook.MERCHANTS, row.currency, -amount),
        ],
        reference=credit.uuid,
    )
    return row
