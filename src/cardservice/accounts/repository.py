"""Queries for accounts, their primary cards and card counts."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.cards.repository import CARD_ORDER
from cardservice.models import Account, Card, User
from cardservice.web import escape_like

ACCOUNT_ORDER = (Account.created_at, Account.uuid)


def filtered(
    owners: Select[uuid.UUID] | list[uuid.UUID], filters: dict[str, Any]
) -> Select[Account, str]:
    query = (
        select(Account, User.name)
        .join(User, User.uuid == Account.user_uuid)
        .where(Account.user_uuid.in_(owners))
    )
    for key in ("status", "type", "currency"):
        if key in filters:
            query = query.where(getattr(Account, key) == filters[key])
    if "search" in filters:
        pattern = f"%{escape_like(filters['search'].lower())}%"
        query = query.where(func.lower(Account.name).like(pattern, escape="\\"))
    return query


def team_members(team_uuid: uuid.UUID, except_user: uuid.UUID) -> Select[uuid.UUID]:
    return select(User.uuid).where(User.team_uuid == team_uuid, User.uuid != except_user)


async def primary_cards(
    session: AsyncSession, account_uuids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, Card]:
    """Each account's first card in its owner's order that is not closed."""
    if not account_uuids:
        return {}
    ranked = (
        select(
            Card.uuid.label("card_uuid"),
            func.row_number()
            .over(partition_by=Card.account_uuid, order_by=CARD_ORDER)
            .label("rank"),
        )
        .where(Card.account_uuid.in_(account_uuids), Card.status != "closed")
        .subquery()
    )
    cards = await session.scalars(
        select(Card).join(ranked, ranked.c.card_uuid == Card.uuid).where(ranked.c.rank == 1)
    )
    return {card.account_uuid: card for card in cards}


async def card_counts(
    session: AsyncSession, account_uuids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, int]:
    if not account_uuids:
        return {}
    rows = await session.execute(
        select(Card.account_uuid, func.count())
        .where(Card.account_uuid.in_(account_uuids))
        .group_by(Card.account_uuid)
    )
    return {row[0]: int(row[1]) for row in rows}


async def visible_account(
    session: AsyncSession,
    account_uuid: uuid.UUID,
    owners: Select[uuid.UUID] | list[uuid.UUID],
) -> Any:
    return (await session.execute(filtered(owners, {}).where(Account.uuid == account_uuid))).first()


async def own_account_for_update(
    session: AsyncSession, user_uuid: uuid.UUID, account_uuid: uuid.UUID
) -> Account | None:
    return await session.scalar(
        select(Account)
        .where(Account.uuid == account_uuid, Account.user_uuid == user_uuid)
        .with_for_update()
        .execution_options(populate_existing=True)  # see the balance as it is now
    )
