"""0400 / 0420 reversals (API.md §14): 90 names the original 0100; without 95 the whole hold
is released (`lifecycle.reverse`, as the sandbox's `/reverse`), with 95 it shrinks to that
amount (`adjustments.shrink_hold`). An unknown original is remembered 24 h under its own
key, so that it is released at once when it arrives."""

from __future__ import annotations

from cardservice.db.sql import Tx
from cardservice.models.base import utcnow
from cardservice.network import repository
from cardservice.network.codec import Message, original_key, replacement_amount
from cardservice.network.host import REVERSAL_MEMORY, Answer, Host, Malformed, key_of, once, require
from cardservice.network.repository import Key
from cardservice.network.responses import APPROVED, ORIGINAL_UNKNOWN, WRONG_STATE
from cardservice.transactions import lifecycle, locks
from cardservice.transactions.adjustments import shrink_hold


def original_of(message: Message) -> Key:
    """The key field 90 names (its acquirer id as 32 would be, zero-filled)."""
    require(message, 90)
    named = original_key(message.fields[90])
    return Key(named.acquirer_id, named.stan, named.transmitted, named.mti[:3])


async def _reverse(tx: Tx, original: Key, stays: int | None) -> tuple[str, object]:
    """The reversal's response code and the transaction it concerns."""
    now = utcnow()
    found = await repository.find(tx, original)
    if found is not None and found.response_code is None:
        if now - found.created_at <= REVERSAL_MEMORY:
            return ORIGINAL_UNKNOWN, None  # another reversal waits for it already
        await repository.forget_waiting(tx, original)
        found = None
    if found is None:  # remembered under the original's key: it is released on arrival
        await repository.remember(tx, original, None, None, {"stays": stays}, now)
        return ORIGINAL_UNKNOWN, None
    if found.transaction_uuid is None:
        return ORIGINAL_UNKNOWN, None  # the original moved nothing (an unknown card)
    user = await repository.owner_of(tx, found.transaction_uuid)
    purchase, _ = await locks.lock_purchase(tx, user, found.transaction_uuid)
    if purchase["status"] in ("reversed", "declined"):
        return APPROVED, purchase["uuid"]  # reversed before (or never held): nothing moves
    if purchase["status"] != "pending":
        return WRONG_STATE, purchase["uuid"]  # captured already
    if stays is None:
        await lifecycle.reverse(tx, user, found.transaction_uuid, now)
    else:
        await shrink_hold(tx, user, found.transaction_uuid, stays, now)
    return APPROVED, purchase["uuid"]


async def reversal(host: Host, message: Message) -> Answer:
    """0400 / 0401 → 0410, 0420 / 0421 → 0430."""
    key = key_of(message)
    original = original_of(message)
    stays = None
    if 95 in message.fields:
        stays = replacement_amount(message.fields[95])
        if stays is None:
            raise Malformed("field 95")

    async def work(tx: Tx) -> Answer:
        code, transaction = await _reverse(tx, original, stays)
        answer = {"39": code}
        await repository.remember(tx, key, transaction, code, answer, utcnow())  # type: ignore[arg-type]
        return answer

    return await once(host, key, work)
