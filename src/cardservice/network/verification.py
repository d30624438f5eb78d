"""Card verification of an 0100 (API.md §14): the expiry of 14 and the CVV2 of 48.92."""

from __future__ import annotations

from cardservice.network.codec import Message, sub_elements
from cardservice.network.fields import CVV2
from cardservice.network.repository import IssuedCard
from cardservice.security import CardCipher


def verification_failure(cipher: CardCipher, message: Message, card: IssuedCard) -> str | None:
    """The decline slug when 14 is not the card's expiry (`invalid_expiry`) or 48.92, when
    present, is not its CVV2 (`invalid_cvv2`); None when the card is verified."""
    if message.fields[14] != card.expiry_yymm:
        return "invalid_expiry"
    elements = sub_elements(message.fields.get(48, "")) or {}
    presented = elements.get(CVV2)
    if presented is not None and presented != card_cvv2(cipher, message.fields[2], card):
        return "invalid_cvv2"
    return None


def card_cvv2(cipher: CardCipher, pan: str, card: IssuedCard) -> str:
    """The card's CVV2, computed by the issuer keys (§13; branch card-details)."""
    raise NotImplementedError("CVV2 arrives with the card-details branch (API.md §13)")
