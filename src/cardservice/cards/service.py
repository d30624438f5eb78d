"""Card rules other than purchase: reading, favorites and the user's card order."""

from __future__ import annotations

import uuid
from typing import Any

from cardservice.cards import repository
from cardservice.cards.records import card_record
from cardservice.db.paging import Page
from cardservice.db.sql import Reader, Tx
from cardservice.errors import CardNotFound


async def list_cards(
    reader: Reader, user_uuid: uuid.UUID, filters: dict[str, Any], page: Page
) -> tuple[list[dict[str, Any]], int]:
    """The user's cards in their order (sort_order, created_at, uuid) and how many match."""
    rows, total = await repository.page_of_cards(reader, user_uuid, filters, page.offset, page.size)
    return [card_record(row) for row in rows], total


async def every_card(
    reader: Reader, filters: dict[str, Any], page: Page
) -> tuple[list[dict[str, Any]], int]:
    """Every user's cards, oldest first (the operator's read-back: `filters` may name a
    `user_uuid` or a `program_uuid`), and how many match."""
    rows, total = await repository.page_of_every_card(reader, filters, page.offset, page.size)
    return [card_record(row) for row in rows], total


async def get_card(reader: Reader, user_uuid: uuid.UUID, card_uuid: uuid.UUID) -> dict[str, Any]:
    """One of the user's own cards; anybody else's is 404."""
    row = await repository.own_card(reader, user_uuid, card_uuid)
    if row is None:
        raise CardNotFound()
    return card_record(row)


async def set_favorite(
    tx: Tx, user_uuid: uuid.UUID, card_uuids: list[uuid.UUID], is_favorite: bool
) -> None:
    """Mark all the cards, or none of them when any is not the user's."""
    if await repository.set_favorite(tx, user_uuid, card_uuids, is_favorite) != len(card_uuids):
        raise CardNotFound("One or more cards were not found.")  # the unit rolls back


async def sort_cards(tx: Tx, user_uuid: uuid.UUID, card_uuids: list[uuid.UUID]) -> None:
    """The given cards take positions 1..n; the others follow in their previous order."""
    current = await repository.lock_order(tx, user_uuid)
    if any(card not in current for card in card_uuids):
        raise CardNotFound("One or more cards were not found.")
    chosen = set(card_uuids)
    rest = [card for card in current if card not in chosen]
    wanted = {card: position for position, card in enumerate([*card_uuids, *rest], start=1)}
    changed = {card: pos for card, pos in wanted.items() if current[card] != pos}
    await repository.set_sort_orders(tx, changed)
