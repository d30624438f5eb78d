"""Card rules other than purchase: reading, favorites and the user's card order."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.cards import repository
from cardservice.cards.records import card_record
from cardservice.cards.schemas import CardRecord
from cardservice.errors import NotFound
from cardservice.web import Page


class CardNotFound(NotFound):
    message = "Card not found."


async def list_cards(
    session: AsyncSession, user_uuid: uuid.UUID, filters: dict[str, Any], page: Page
) -> tuple[list[CardRecord], int]:
    """The user's cards in their order (sort_order, then created_at, then uuid)."""
    rows, total = await repository.page_of_cards(
        session, user_uuid, filters, page.offset, page.size
    )
    return [card_record(card) for card in rows], total


async def get_card(session: AsyncSession, user_uuid: uuid.UUID, card_uuid: uuid.UUID) -> CardRecord:
    """One of the user's own cards; anybody else's is 404."""
    card = await repository.own_card(session, user_uuid, card_uuid)
    if card is None:
        raise CardNotFound()
    return card_record(card)


async def _require_own(
    session: AsyncSession, user_uuid: uuid.UUID, card_uuids: list[uuid.UUID]
) -> None:
    if await repository.count_own(session, user_uuid, card_uuids) != len(card_uuids):
        raise CardNotFound("One or more cards were not found.")


async def set_favorite(
    session: AsyncSession, user_uuid: uuid.UUID, card_uuids: list[uuid.UUID], is_favorite: bool
) -> None:
    """Mark all the cards, or none of them when any is not the user's."""
    await _require_own(session, user_uuid, card_uuids)
    await repository.set_favorite(session, user_uuid, card_uuids, is_favorite)


async def sort_cards(
    session: AsyncSession, user_uuid: uuid.UUID, card_uuids: list[uuid.UUID]
) -> None:
    """The given cards take positions 1..n; the others follow in their previous order."""
    await _require_own(session, user_uuid, card_uuids)
    chosen = set(card_uuids)
    current = await repository.current_order(session, user_uuid)
    rest = [card for card in current if card not in chosen]
    wanted = {card: position for position, card in enumerate([*card_uuids, *rest], start=1)}
    changed = {card: pos for card, pos in wanted.items() if current[card] != pos}
    await repository.set_sort_orders(session, changed)
