"""Cards: purchase, numbers, listing, favorites and order."""

from __future__ import annotations

from cardservice.cards.changes import change_card
from cardservice.cards.lookup import card_by_pan
from cardservice.cards.numbers import luhn_check_digit, luhn_valid
from cardservice.cards.physical import move_fulfilment
from cardservice.cards.pin import presented_pvv
from cardservice.cards.purchase import buy_cards
from cardservice.cards.records import CARD_FIELDS, card_columns, card_order, card_record
from cardservice.cards.replacement import replace_card
from cardservice.cards.repository import (
    cards_of_user,
    holder_of,
    last_card_of_account,
    update_card,
)
from cardservice.cards.schemas import (
    BuyCardsRequest,
    CardChangeRequest,
    CardRecord,
    CardType,
    FulfilmentRequest,
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
    "FulfilmentRequest",
    "ReplaceCardRequest",
    "SpendingControls",
    "SpendingControlsRecord",
    "buy_cards",
    "card_by_pan",
    "card_columns",
    "card_order",
    "card_record",
    "cards_of_user",
    "change_card",
    "every_card",
    "get_card",
    "holder_of",
    "last_card_of_account",
    "list_cards",
    "luhn_check_digit",
    "luhn_valid",
    "move_fulfilment",
    "presented_pvv",
    "replace_card",
    "update_card",
]
