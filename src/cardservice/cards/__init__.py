"""Cards: purchase, numbers, listing, favorites and order."""

from __future__ import annotations

from cardservice.cards.purchase import buy_cards
from cardservice.cards.records import CARD_FIELDS, card_columns, card_order, card_record
from cardservice.cards.schemas import (
    BuyCardsRequest,
    CardChangeRequest,
    CardRecord,
    CardType,
    ReplaceCardRequest,
    SpendingControls,
    SpendingControlsRecord,
)

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
]
