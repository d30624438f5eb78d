"""Reading transactions: one by uuid, and the paginated report."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.cards.numbers import mask
from cardservice.ledger.money import from_minor
from cardservice.models import Card, Transaction
from cardservice.transactions.lifecycle import TransactionNotFound
from cardservice.transactions.receipt import ReceiptView


def _filtered(user_uuid: uuid.UUID, filters: dict[str, Any]) -> Select[Transaction]:
    query = select(Transaction).where(Transaction.user_uuid == user_uuid)
    for key in ("card_uuid", "account_uuid", "status", "type"):
        if key in filters:
            query = query.where(getattr(Transaction, key) == filters[key])
    if "date_from" in filters:
        query = query.where(Transaction.created_at >= _start_of(filters["date_from"]))
    if "date_to" in filters:
        query = query.where(
            Transaction.created_at < _start_of(filters["date_to"] + timedelta(days=1))
        )
    return query


def _start_of(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


async def report(
    session: AsyncSession, user_uuid: uuid.UUID, filters: dict[str, Any], offset: int, limit: int
) -> tuple[Sequence[Transaction], int]:
    """The user's transactions, newest first (ties by uuid), and how many match."""
    query = _filtered(user_uuid, filters)
    total = await session.scalar(select(func.count()).select_from(query.subquery()))
    rows = await session.scalars(
        query.order_by(Transaction.created_at.desc(), Transaction.uuid.desc())
        .offset(offset)
        .limit(limit)
    )
    return rows.all(), int(total or 0)


async def own_transaction(
    session: AsyncSession, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID
) -> tuple[Transaction, Card | None]:
    """One of the user's transactions (and its card); anybody else's is 404."""
    row = await session.execute(
        select(Transaction, Card)
        .outerjoin(Card, Card.uuid == Transaction.card_uuid)
        .where(Transaction.uuid == transaction_uuid, Transaction.user_uuid == user_uuid)
    )
    found = row.first()
    if found is None:
        raise TransactionNotFound()
    return found[0], found[1]


async def receipt_view(
    session: AsyncSession, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID
) -> ReceiptView:
    """What the receipt of one of the user's transactions shows (card mask, never the number)."""
    row, card = await own_transaction(session, user_uuid, transaction_uuid)
    return ReceiptView(
        transaction_uuid=str(row.uuid),
        type=row.type,
        status=row.status,
        merchant_name=row.merchant_name,
        amount=str(from_minor(row.amount)),
        fee=str(from_minor(row.fee)),
        currency=row.currency,
        direction=row.direction,
        card_mask=mask(card.bin, card.last4) if card else None,
        created_at=row.created_at,
        error=row.error_slug,
    )
