"""The operator acting on a cardholder's card (docs/operations.md, "Acting on cards"):
freeze, unfreeze, replace and the card producer's fulfilment steps, through the very use
cases the holder's own routes call (`cards.changes.change_card`,
`cards.replacement.replace_card`, with `by="operator"`), so the same rules, locks and events
apply; each action leaves an audit row naming the operator key.

An operator's freeze sets `frozen_reason: operator`, which only the operator lifts; the
operator lifts the card-testing guard's freeze (`suspected_fraud`) too, never the holder's
own (`frozen_by_holder`) nor the receipt policy's (`receipt_missing`).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from cardservice.cards import (
    CardChangeRequest,
    FulfilmentRequest,
    change_card,
    holder_of,
    physical,
    replace_card,
)
from cardservice.db.sql import Tx
from cardservice.errors import CardNotFound
from cardservice.operator.acting import Acting
from cardservice.security import CardCipher

FREEZE = CardChangeRequest(status="frozen")
UNFREEZE = CardChangeRequest(status="active")


async def _holder(tx: Tx, card_uuid: uuid.UUID) -> uuid.UUID:
    holder = await holder_of(tx, card_uuid)
    if holder is None:
        raise CardNotFound()
    return holder


async def set_card_frozen(
    tx: Tx, acting: Acting, card_uuid: uuid.UUID, frozen: bool, now: datetime
) -> dict[str, Any]:
    """Freeze (`frozen_reason: operator`) or unfreeze a card; its record, as its holder sees it."""
    holder = await _holder(tx, card_uuid)
    body, action = (FREEZE, "card.frozen") if frozen else (UNFREEZE, "card.unfrozen")
    record = await change_card(tx, holder, card_uuid, body, now, by="operator")
    await acting.record(tx, action, "card", card_uuid, {"user_uuid": str(holder)})
    return record


async def replace_holders_card(
    tx: Tx, cipher: CardCipher, acting: Acting, card_uuid: uuid.UUID, reason: str, now: datetime
) -> dict[str, Any]:
    """Replace a card as its holder would (`POST /card/{uuid}/replace`); the new card."""
    holder = await _holder(tx, card_uuid)
    record = await replace_card(tx, cipher, holder, card_uuid, reason, now, by="operator")
    details = {"user_uuid": str(holder), "reason": reason, "replaced_by": record["uuid"]}
    await acting.record(tx, "card.replaced", "card", card_uuid, details)
    return record


async def move_fulfilment(
    tx: Tx, acting: Acting, card_uuid: uuid.UUID, step: FulfilmentRequest, now: datetime
) -> dict[str, Any]:
    """A physical card's next fulfilment step, as the card producer reports it; its record."""
    holder = await _holder(tx, card_uuid)
    record = await physical.move_fulfilment(tx, holder, card_uuid, step, now)
    details = {"user_uuid": str(holder), "status": step.status}
    await acting.record(tx, "card.fulfilment", "card", card_uuid, details)
    return record
