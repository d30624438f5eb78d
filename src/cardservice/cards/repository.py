"""Queries for the cards table."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.models import Card
from cardservice.models.base import utcnow
from cardservice.web import escape_like

CARD_ORDER = (Card.sort_order, Card.created_at, Card.uuid)


def _filtered(user_uuid: uuid.UUID, filters: dict[str, Any]) -> Select[Card]:
    query = select(Card).where(Card.user_uuid == user_uuid)
    if "status" in filters:
        query = query.where(Card.status == filters["status"])
    if "account_uuid" in filters:
        query = query.where(Card.account_uuid == filters["account_uuid"])
    if "is_favorite" in filters:
        query = query.where(Card.is_favorite == filters["is_favorite"])
    if "search" in filters:
        pattern = f"%{escape_like(filters['search'].lower())}%"
        query = query.where(
            or_(
                Card.last4.like(pattern, escape="\\"),
                func.lower(Card.bin).like(pattern, escape="\\"),
                func.lower(func.coalesce(Card.description, "")).like(pattern, escape="\\"),
                Card.bin.concat("******").concat(Card.last4).like(pattern, escape="\\"),
            )
        )
    return query


async def page_of_cards(
    session: AsyncSession, user_uuid: uuid.UUID, filters: dict[str, Any], offset: int, limit: int
) -> tuple[Sequence[Card], int]:
    """One page of the user's cards in their order, and how many match in all."""
    query = _filtered(user_uuid, filters)
    total = await session.scalar(select(func.count()).select_from(query.subquery()))
    rows = (await session.scalars(query.order_by(*CARD_ORDER).offset(offset).limit(limit))).all()
    return rows, int(total or 0)


async def own_card(
    session: AsyncSession, user_uuid: uuid.UUID, card_uuid: uuid.UUID, *, for_update: bool = False
) -> Card | None:
    query = select(Card).where(Card.uuid == card_uuid, Card.user_uuid == user_uuid)
    if for_update:  # a locking read must see the row as it is now, not as the session last saw it
        query = query.with_for_update().execution_options(populate_existing=True)
    return await session.scalar(query)


async def count_own(
    session: AsyncSession, user_uuid: uuid.UUID, card_uuids: Sequence[uuid.UUID]
) -> int:
    total = await session.scalar(
        select(func.count()).where(Card.user_uuid == user_uuid, Card.uuid.in_(card_uuids))
    )
    return int(total or 0)


async def current_order(session: AsyncSession, user_uuid: uuid.UUID) -> dict[uuid.UUID, int]:
    """The user's cards → sort_order, in card order (rows locked for the re-numbering)."""
    rows = await session.execute(
        select(Card.uuid, Card.sort_order)
        .where(Card.user_uuid == user_uuid)
        .order_by(*CARD_ORDER)
        .with_for_update()
    )
    return {row.uuid: row.sort_order for row in rows}


async def next_sort_order(session: AsyncSession, user_uuid: uuid.UUID) -> int:
    current = await session.scalar(
        select(func.max(Card.sort_order)).where(Card.user_uuid == user_uuid)
    )
    return int(current or 0) + 1


async def set_favorite(
    session: AsyncSession, user_uuid: uuid.UUID, card_uuids: Sequence[uuid.UUID], is_favorite: bool
) -> None:
    await session.execute(
        update(Card)
        .where(Card.user_uuid == user_uuid, Card.uuid.in_(card_uuids))
        .values(is_favorite=is_favorite, updated_at=utcnow())
    )


async def set_sort_orders(session: AsyncSession, orders: dict[uuid.UUID, int]) -> None:
    now = utcnow()
    for card_uuid, position in orders.items():
        await session.execute(
            update(Card).where(Card.uuid == card_uuid).values(sort_order=position, updated_at=now)
        )


async def fingerprint_taken(session: AsyncSession, fingerprint: str) -> bool:
    found = await session.scalar(select(Card.uuid).where(Card.pan_fingerprint == fingerprint))
    return found is not None
