"""Locked and fresh reads of the rows money moves through."""

from __future__ import annotations

import uuid

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.models import Account, Card


async def lock_account(session: AsyncSession, account_uuid: uuid.UUID) -> Account:
    """The account row, locked for this transaction and read as it is now."""
    return await session.get_one(
        Account, account_uuid, with_for_update=True, populate_existing=True
    )


async def lock_card(session: AsyncSession, card_uuid: uuid.UUID) -> Card:
    """The card row, locked for this transaction and read as it is now."""
    return await session.get_one(Card, card_uuid, with_for_update=True, populate_existing=True)


async def balance_of(
    session: AsyncSession, model: type[Account] | type[Card], key: uuid.UUID
) -> int:
    """A balance as the database has it (post_entry moves balances in SQL)."""
    value = await session.scalar(select(model.balance).where(model.uuid == key))
    return int(value or 0)
