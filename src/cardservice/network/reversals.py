"""0400 / 0420 reversals (docs/network.md#the-network-interface-iso-8583,
docs/network.md#a-follow-up-belongs-to-its-acquirer-and-its-card): 90 names the original 0100, of
the reversal's own acquirer and of the card of its field 2 (network/originals.py; else `25`, nothing
remembered). A reversal in another currency (49) than its original's answers `12` and moves nothing.
Without 95 the whole hold is released, with 95 it shrinks to that amount: the reverse entry
(`transactions.reverse`) the sandbox's `/reverse` calls. An unknown original is remembered 24 h
under its own key, with the card it is for, so that it is released at once when it arrives with
that card."""

from __future__ import annotations

import uuid

from cardservice.db.sql import Tx
from cardservice.models.base import utcnow
from cardservice.network import repository
from cardservice.network.codec import Message, replacement_amount
from cardservice.network.host import REVERSAL_MEMORY, Answer, Host, Malformed, key_of, once
from cardservice.network.originals import (
    bound_original,
    card_of,
    currency_of,
    in_its_currency,
    own_original,
)
from cardservice.network.repository import Key
from cardservice.network.responses import APPROVED, ORIGINAL_UNKNOWN, WRONG_STATE
from cardservice.transactions import ReversalMessage, lock_purchase, reverse


async def _reverse(
    tx: Tx, message: Message, original: Key, card: uuid.UUID, stays: int | None
) -> tuple[str, uuid.UUID | None]:
    """The reversal's response code and the transaction it concerns."""
    now = utcnow()
    found = await repository.find(tx, original)
    if found is not None and found.response_code is None:
        if now - found.created_at <= REVERSAL_MEMORY:
            return ORIGINAL_UNKNOWN, None  # another reversal waits for it already
        await repository.forget_waiting(tx, original)
        found = None
    if found is None:  # remembered under the original's key: it is released on arrival
        waiting = {"stays": stays, "card": str(card), "currency": currency_of(message)}
        await repository.remember(tx, original, None, None, waiting, now)
        return ORIGINAL_UNKNOWN, None
    bound = await bound_original(tx, found, card)
    if bound is None:
        return ORIGINAL_UNKNOWN, None  # the original moved nothing (an unknown card)
    if not in_its_currency(message, bound):
        return WRONG_STATE, None  # nothing moves
    purchase, _ = await lock_purchase(tx, bound.user_uuid, bound.transaction_uuid)
    if purchase.status in ("reversed", "declined"):
        return APPROVED, purchase.uuid  # reversed before (or never held): nothing moves
    if purchase.status != "pending":
        return WRONG_STATE, purchase.uuid  # captured already
    reversal = ReversalMessage(purchase.uuid, "iso8583", stays)
    await reverse(tx, bound.user_uuid, reversal, now)
    return APPROVED, purchase.uuid


async def reversal(host: Host, message: Message) -> Answer:
    """0400 / 0401 → 0410, 0420 / 0421 → 0430."""
    key = key_of(message)
    stays = None
    if 95 in message.fields:
        stays = replacement_amount(message.fields[95])
        if stays is None:
            raise Malformed("field 95")

    async def work(tx: Tx) -> Answer:
        original = own_original(message, key)
        card = await card_of(host, tx, message)
        code, transaction = await _reverse(tx, message, original, card, stays)
        answer = {"39": code}
        await repository.remember(tx, key, transaction, code, answer, utcnow())
        return answer

    return await once(host, key, work)
