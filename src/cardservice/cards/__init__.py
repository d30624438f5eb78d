"""Cards: purchase, numbers, listing, favorites and order."""

from __future__ import annotations

from cardservice.cards.pin import presented_pvv
from cardservice.cards.purchase import buy_cards
from cardservice.cards.records import CARD_FIELDS, card_columns, card_order, card_record
from cardservice.cards.repository import holder_of, update_card
from cardservice.cards.schemas import (
    BuyCardsRequest,
    CardChangeRequest,
    CardRecord,
    CardType,
    ReplaceCardRequest,
    SpendingControls,
    SpendingControlsRecord,
)
from cardservice.cards.service import every_card, get_card, list_cards

__all__ = [
    "CARD_FIELDS",
    "BuyCardsRequest",
    "CardChangeRequest",
    "CardRecord",
    "CardType",
    "ReplaceCardRequest",
    "SpendingControls",
    "SpendingControlsRecord",
    "buy_cards",
    "card_columns",
    "card_order",
    "card_record",
    "every_card",
    "get_card",
    "holder_of",
    "list_cards",
    "presented_pvv",
    "update_card",
]
