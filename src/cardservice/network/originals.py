"""A follow-up's original (docs/network.md#the-network-interface-iso-8583,
docs/network.md#a-follow-up-belongs-to-its-acquirer-and-its-card): the 0100 or 0120 that field 90 of
an 0400, 0420 or 0220 names, looked up only for the acquirer and the card it belongs to.

A follow-up whose 90 names another acquirer's key than its own 32, or whose 2 is not the
original's card (or is missing), is `NotTheirs`: answered `25`, nothing moved and nothing
remembered — not the follow-up's key, and not an early reversal waiting for its original.
A follow-up in another currency (49) than its original's is answered `12` and moves nothing
(`in_its_currency`; docs/network.md, "Follow-ups in the original's currency").
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from cardservice.db.sql import Tx
from cardservice.network import repository
from cardservice.network.codec import Message, original_key
from cardservice.network.fields import CURRENCIES
from cardservice.network.host import Host, NotTheirs, require
from cardservice.network.repository import Key, Remembered
from cardservice.transactions import payee


def original_of(message: Message) -> Key:
    """The key field 90 names (its acquirer id as 32 would be, zero-filled)."""
    require(message, 90)
    named = original_key(message.fields[90])
    return Key(named.acquirer_id, named.stan, named.transmitted, named.mti[:3])


def own_original(message: Message, key: Key) -> Key:
    """The key 90 names, when it is of the follow-up's own acquirer (32); else `NotTheirs`."""
    original = original_of(message)
    if original.acquirer_id != key.acquirer_id:
        raise NotTheirs("field 90 names another acquirer's original")
    return original


async def card_of(host: Host, tx: Tx, message: Message) -> uuid.UUID:
    """The issued card of the follow-up's field 2; `NotTheirs` when 2 is missing or is no
    card of this issuer (no original can be its)."""
    if 2 not in message.fields:
        raise NotTheirs("no field 2")
    card = await repository.issued_card(tx, host.cipher.fingerprint(message.fields[2]))
    if card is None:
        raise NotTheirs("field 2 is no card of this issuer")
    return card.card_uuid


@dataclass(frozen=True, slots=True)
class Original:
    """An original that moved money: its transaction and the user it belongs to."""

    transaction_uuid: uuid.UUID
    user_uuid: uuid.UUID
    currency: str  # its message's (49): the merchant's


def currency_of(message: Message) -> str | None:
    """Field 49 as a currency code (an unknown numeric code stays itself); None: not sent."""
    numeric = message.fields.get(49)
    return None if numeric is None else CURRENCIES.get(numeric, numeric)


def in_its_currency(message: Message, original: Original) -> bool:
    """Whether a follow-up is in its original's currency (a reversal may leave 49 out: it
    names the original's amounts)."""
    currency = currency_of(message)
    return currency is None or currency == original.currency


async def bound_original(tx: Tx, found: Remembered, card_uuid: uuid.UUID) -> Original | None:
    """The original's transaction and user, when it is of the card of field 2 (`NotTheirs`
    otherwise); None when the original moved nothing (an unknown card, a blocked merchant).
    A wallet token's DPAN names the card the token pays with now: an original booked on the
    card that card replaced is its too (docs/network.md#wallet-tokens, the token moved with the
    replacement)."""
    if found.transaction_uuid is None:
        return None
    user, card, currency = await repository.owner_and_card(tx, found.transaction_uuid)
    if card != card_uuid and (card is None or (await payee(tx, card))[0] != card_uuid):
        raise NotTheirs("field 2 is not the original's card")
    return Original(found.transaction_uuid, user, currency)
