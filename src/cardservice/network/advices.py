"""0220 financial advices (docs/network.md#the-network-interface-iso-8583,
docs/network.md#a-channel-that-can-be-trusted): processing code 000000 captures the original named
in 90 (`transactions.capture`, the docs/transactions.md#holds-captures-increments-expiry rules:
48.60 = 1 keeps the rest held); 200000 refunds it (`transactions.refund`), or without 90 credits the
card of field 2 (`transactions.credit_card`). An original is one of the advice's own acquirer (32)
and of the card of its field 2 (network/originals.py; else `25`, nothing remembered); a capture or
refund of it in another currency (49) answers `12` and moves nothing."""

from __future__ import annotations

import uuid

from cardservice.db.sql import Tx
from cardservice.models.base import utcnow
from cardservice.network import repository
from cardservice.network.authorizations import network_data
from cardservice.network.codec import Message, merchant_place, sub_elements
from cardservice.network.fields import (
    CURRENCIES,
    MORE_TO_FOLLOW,
    PURCHASE,
    REFUND,
    is_withdrawal,
)
from cardservice.network.host import Answer, Host, Malformed, Refused, key_of, once, require
from cardservice.network.originals import bound_original, card_of, in_its_currency, own_original
from cardservice.network.responses import APPROVED, ORIGINAL_UNKNOWN, UNKNOWN_CARD, WRONG_STATE
from cardservice.transactions import CaptureMessage, RefundMessage, capture, credit_card, refund


async def _original(host: Host, tx: Tx, message: Message) -> tuple[uuid.UUID, uuid.UUID]:
    """The original's transaction and its user (`25` when the key is unknown, or names
    another acquirer's original or another card's; `12` when 49 is not its currency)."""
    original = own_original(message, key_of(message))
    card = await card_of(host, tx, message)
    found = await repository.find(tx, original)
    bound = None if found is None else await bound_original(tx, found, card)
    if bound is None:
        raise Refused(ORIGINAL_UNKNOWN)
    if not in_its_currency(message, bound):
        raise Refused(WRONG_STATE)
    return bound.transaction_uuid, bound.user_uuid


async def _capture(host: Host, tx: Tx, message: Message, amount: int) -> uuid.UUID:
    transaction, user = await _original(host, tx, message)
    elements = sub_elements(message.fields.get(48, "")) or {}
    final = elements.get(MORE_TO_FOLLOW) != "1"
    await capture(tx, user, CaptureMessage(transaction, amount, final, channel="iso8583"))
    return transaction


async def _refund(host: Host, tx: Tx, message: Message, amount: int) -> uuid.UUID:
    if 90 in message.fields:
        transaction, user = await _original(host, tx, message)
        shown = repository.network_json(network_data(message, None))
        await refund(tx, user, RefundMessage(transaction, amount, "iso8583", {"network": shown}))
        return transaction
    require(message, 2)
    card = await repository.issued_card(tx, host.cipher.fingerprint(message.fields[2]))
    if card is None:
        raise Refused(UNKNOWN_CARD)
    place = merchant_place(message.fields)
    merchant = {
        "name": place.name if place else message.fields.get(42, "").strip() or None,
        "city": place.city if place else None,
        "country": place.country if place else None,
        "mcc": message.fields.get(18),
    }
    currency = CURRENCIES.get(message.fields[49], message.fields[49])
    network = network_data(message, None)
    credit = await credit_card(
        tx, card.user_uuid, card.card_uuid, amount, currency, merchant, utcnow(), network
    )
    return uuid.UUID(str(credit["uuid"]))


async def financial_advice(host: Host, message: Message) -> Answer:
    """0220 / 0221 → 0230."""
    require(message, 3, 4, 49)
    key = key_of(message)
    amount = int(message.fields[4])
    code = message.fields[3]
    capture = code == PURCHASE or is_withdrawal(code)  # an ATM withdrawal's too
    if amount <= 0 or not (capture or code == REFUND) or (capture and 90 not in message.fields):
        raise Malformed("a capture names its original (90); amounts are positive")
    if 48 in message.fields and sub_elements(message.fields[48]) is None:
        raise Malformed("field 48")

    async def work(tx: Tx) -> Answer:
        if capture:
            transaction = await _capture(host, tx, message, amount)
        else:
            transaction = await _refund(host, tx, message, amount)
        answer = {"39": APPROVED}
        await repository.remember(tx, key, transaction, APPROVED, answer, utcnow())
        return answer

    return await once(host, key, work)
