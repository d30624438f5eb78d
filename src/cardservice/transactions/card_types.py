"""Card types (docs/security.md#card-details-cvv2-and-issuer-keys), enforced inside the one
authorization decision, so the sandbox and the network get them alike:

* `multi_use`: no rule of its own.
* `single_use`: one purchase. A new authorization once the card has an approved purchase
  that was not reversed is declined `card_closed`; the first capture closes the card
  (`closing.close_single_use_after_capture`, called by the capture entry: its balance goes
  back to the account, as a close does).
* a virtual card's own number at a terminal (`CARD_PRESENT` entry modes) is declined
  `virtual_card_present`: only a physical card or a wallet token is read there.
* `merchant_locked`: the first approved authorization binds the card to its merchant (the
  network's merchant id when given, else the merchant name: the sandbox's); another merchant
  is declined `merchant_blocked`.

Race-proof by the card's row lock, which the engine holds from its decision to its record:
of 20 concurrent first authorizations at two merchants, the first to lock the card binds
it, the others see the binding.
"""

from __future__ import annotations

from typing import Any

from cardservice.db.sql import Row, Tx, as_uuid
from cardservice.transactions.repository import has_approved_purchase, lock_merchant

# Entry modes where a terminal reads the card itself (docs/cards.md#pin-in-iso-8583): a virtual
# card has no plastic to read, so its own number there is declined `virtual_card_present`
CARD_PRESENT = frozenset({"chip", "contactless", "magstripe"})


def virtual_number(card: Row, token: Any) -> bool:
    """A virtual card presented by its own number (not a wallet token's DPAN, which a phone
    presents at a terminal as its holder's device)."""
    return card["form"] == "virtual" and token is None


def merchant_key(merchant_id: str | None, merchant_name: str) -> str:
    """The merchant a locked card is bound to: its network id, else its name."""
    return (merchant_id or merchant_name).strip()


async def card_type_refusal(tx: Tx, card: Row, merchant: str, is_increment: bool) -> str | None:
    """The decline reason the card's type gives this authorization, or None. `card` is the
    engine's locked card row (with `card_type` and `locked_merchant`)."""
    if is_increment:  # an increment raises a purchase the type already allowed
        return None
    if card["card_type"] == "single_use" and await has_approved_purchase(tx, as_uuid(card["uuid"])):
        return "card_closed"
    if card["card_type"] == "merchant_locked":
        locked = card["locked_merchant"]
        if locked is not None and locked != merchant:
            return "merchant_blocked"
    return None


def binds_on_approval(card: Row) -> bool:
    """A merchant_locked card not bound yet: its next approval binds it."""
    return bool(card["card_type"] == "merchant_locked" and card["locked_merchant"] is None)


async def bind_on_approval(tx: Tx, card: Row, merchant: str) -> None:
    """An approved first authorization binds a merchant_locked card to its merchant."""
    if binds_on_approval(card):
        await lock_merchant(tx, as_uuid(card["uuid"]), merchant)
