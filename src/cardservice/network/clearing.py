"""0220 financial advices (API.md §14): processing code 000000 captures the original named
in 90 (`lifecycle.capture`, the §12 rules: 48.60 = 1 keeps the rest held); 200000 refunds it
(`lifecycle.refund`), or without 90 credits the card of field 2
(`adjustments.credit_card`)."""

from __future__ import annotations

import uuid

from cardservice.db.sql import Tx
from cardservice.models.base import utcnow
from cardservice.network import repository
from cardservice.network.authorizations import network_data
from cardservice.network.codec import Message, merchant_place, sub_elements
from cardservice.network.fields import CURRENCIES, MORE_TO_FOLLOW, PURCHASE, REFUND
from cardservice.network.host import Answer, Host, Malformed, Refused, key_of, once, require
from cardservice.network.responses import APPROVED, ORIGINAL_UNKNOWN, UNKNOWN_CARD
from cardservice.network.reversals import original_of
from cardservice.transactions import lifecycle, service
from cardservice.transactions.adjustments import credit_card
from cardservice.transactions.service import CaptureMessage


async def _original(tx: Tx, message: Message) -> tuple[uuid.UUID, uuid.UUID]:
    """The original's transaction and its user (`25` when the key is unknown)."""
    found = await repository.find(tx, original_of(message))
    if found is None or found.transaction_uuid is None:
        raise Refused(ORIGINAL_UNKNOWN)
    return found.transaction_uuid, await repository.owner_of(tx, found.transaction_uuid)


async def _capture(tx: Tx, message: Message, amount: int) -> uuid.UUID:
    transaction, user = await _original(tx, message)
    elements = sub_elements(message.fields.get(48, "")) or {}
    final = elements.get(MORE_TO_FOLLOW) != "1"
    await service.capture(tx, user, CaptureMessage(transaction, amount, final, channel="iso8583"))
    return transaction


async def _refund(host: Host, tx: Tx, message: Message, amount: int) -> uuid.UUID:
    channel = {
        "channel": "iso8583",
        "network": repository.network_json(network_data(message, None)),
    }
    if 90 in message.fields:
        transaction, user = await _original(tx, message)
        await lifecycle.refund(tx, user, transaction, amount, channel=channel)
        return transaction
    require(message, 2)
    card = await repository.issued_card(tx, host.cipher.fingerprint(message.fields[2]))
    if card is None:
        raise Refused(UNKNOWN_CARD)
    place = merchant_place(message.fields[43]) if 43 in message.fields else None
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
    if (
        amount <= 0
        or code not in (PURCHASE, REFUND)
        or (code == PURCHASE and 90 not in message.fields)
    ):
        raise Malformed("a capture names its original (90); amounts are positive")
    if 48 in message.fields and sub_elements(message.fields[48]) is None:
        raise Malformed("field 48")

    async def work(tx: Tx) -> Answer:
        if code == PURCHASE:
            transaction = await _capture(tx, message, amount)
        else:
            transaction = await _refund(host, tx, message, amount)
        answer = {"39": APPROVED}
        await repository.remember(tx, key, transaction, APPROVED, answer, utcnow())
        return answer

    return await once(host, key, work)
