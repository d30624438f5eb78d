"""Card verification of an 0100 (API.md §14): the expiry of 14 and the CVV2 of 48.92; for a
wallet token's DPAN (§19), the token's expiry and status (no CVV2 is expected)."""

from __future__ import annotations

import hmac

from cardservice.network.codec import Message, sub_elements
from cardservice.network.fields import CVV2
from cardservice.network.repository import IssuedCard, WalletToken
from cardservice.security import CardCipher


def verification_failure(cipher: CardCipher, message: Message, card: IssuedCard) -> str | None:
    """The decline slug when 14 is not the card's expiry (`invalid_expiry`) or 48.92, when
    present, is not its CVV2 (`invalid_cvv2`); None when the card is verified."""
    if message.fields[14] != card.expiry_yymm:
        return "invalid_expiry"
    elements = sub_elements(message.fields.get(48, "")) or {}
    presented = elements.get(CVV2)
    if presented is None:
        return None
    expected = cipher.cvv2(message.fields[2], card.expiry_yymm)  # computed, never stored (§13)
    return None if hmac.compare_digest(presented, expected) else "invalid_cvv2"


def token_verification_failure(message: Message, token: WalletToken) -> str | None:
    """The decline slug when 14 is not the token's expiry (`invalid_expiry`) or the token is
    not active (`token_inactive`: suspended, or waiting for its activation code)."""
    if message.fields[14] != token.expiry_yymm:
        return "invalid_expiry"
    return None if token.status == "active" else "token_inactive"
