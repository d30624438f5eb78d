"""A physical card's life after its purchase (docs/cards.md#physical-cards): its fulfilment
steps, moved by the card producer's feed, and its activation by its holder.

* Fulfilment: `ordered → printed → shipped → delivered`, or `returned` from `shipped`; any
  other step is 409 `fulfilment_out_of_order`, a virtual card's 422 `card_not_physical`.
  Each step is a `card.updated` event (the event triggers watch the status, not these
  columns, so the step inserts it). A carrier or tracking number left out keeps the last one.
* Activation: the holder's own physical card, `shipped` or `delivered`, with the last four
  digits of its number → `active` (the status trigger writes its `card.updated`). Before it is
  shipped (or once returned) → 409 `card_not_shipped`; wrong digits → 422
  `invalid_card_details`, counted as the card-testing guard counts wrong details (the 5th
  within 24 h freezes the card `suspected_fraud`; its holder sets it active, which gives it
  back `inactive`, and activates it then; until then 409 `card_frozen`).

Locks as every card change (docs/ledger.md): the card's account, then the card.
"""

from __future__ import annotations

import hmac
import uuid
from datetime import datetime
from typing import Any

from cardservice.cards import repository
from cardservice.cards.changes import CardClosed
from cardservice.cards.records import card_record
from cardservice.cards.schemas import FulfilmentRequest
from cardservice.db.sql import Row, Tx
from cardservice.errors import CardNotFound, RuleViolation, ServiceError
from cardservice.transactions import card_testing, lock_card_account, lock_card_columns

# each step and the steps that may follow it
NEXT_STEPS = {
    "ordered": ("printed",),
    "printed": ("shipped",),
    "shipped": ("delivered", "returned"),
    "delivered": (),
    "returned": (),
}
WITH_THE_HOLDER = ("shipped", "delivered")
_COLUMNS = (
    "uuid", "user_uuid", "status", "form", "last4", "fulfilment_status", "fulfilment_carrier",
    "fulfilment_tracking", "activated_at", "frozen_reason", "verification_failures",
)  # fmt: skip


class FulfilmentOutOfOrder(ServiceError):
    status_code, code = 409, "fulfilment_out_of_order"
    message = "This fulfilment step does not follow the card's current one."


class CardNotPhysical(RuleViolation):
    code, message = "card_not_physical", "The card is virtual: it is not produced nor shipped."


class CardNotShipped(ServiceError):
    status_code, code = 409, "card_not_shipped"
    message = "The card has not been shipped yet; it can be activated once it is."


class CardAlreadyActive(ServiceError):
    status_code, code = 409, "card_already_active"
    message = "The card is already activated."


class CardFrozenForActivation(ServiceError):
    status_code, code = 409, "card_frozen"
    message = (
        "Too many wrong digits froze the card; set it active again (PATCH /card/{uuid}), then"
        " activate it with the last four digits."
    )


class InvalidCardDetails(RuleViolation):
    code, message = "invalid_card_details", "The digits do not match the card."


async def _lock_physical(tx: Tx, user_uuid: uuid.UUID, card_uuid: uuid.UUID) -> Row:
    """The user's card (the columns above), its account and itself locked; a physical one."""
    if await lock_card_account(tx, user_uuid, card_uuid) is None:
        raise CardNotFound()
    card = await lock_card_columns(tx, card_uuid, _COLUMNS)
    assert card is not None, "the account's lock was taken through this card"
    if card["form"] != "physical":
        raise CardNotPhysical()
    return card


async def _record(tx: Tx, user_uuid: uuid.UUID, card_uuid: uuid.UUID) -> dict[str, Any]:
    row = await repository.own_card(tx, user_uuid, card_uuid)
    assert row is not None
    return card_record(row)


async def move_fulfilment(
    tx: Tx, user_uuid: uuid.UUID, card_uuid: uuid.UUID, step: FulfilmentRequest, now: datetime
) -> dict[str, Any]:
    """The card's next fulfilment step (in order only); its record."""
    card = await _lock_physical(tx, user_uuid, card_uuid)
    if step.status not in NEXT_STEPS[card["fulfilment_status"]]:
        raise FulfilmentOutOfOrder()
    columns = {
        "fulfilment_status": step.status,
        "fulfilment_carrier": step.carrier or card["fulfilment_carrier"],
        "fulfilment_tracking": step.tracking or card["fulfilment_tracking"],
        "fulfilment_updated_at": now,
    }
    await repository.update_card(tx, card_uuid, columns, now)
    await repository.insert_card_event(tx, "card.updated", user_uuid, card_uuid, now)
    return await _record(tx, user_uuid, card_uuid)


async def activate_card(
    tx: Tx, user_uuid: uuid.UUID, card_uuid: uuid.UUID, last4: str, now: datetime
) -> dict[str, Any] | None:
    """The holder's physical card made active, once shipped, with its last four digits; its
    record. None for wrong digits, counted in this unit by the card-testing guard (the 5th
    within 24 h freezes the card `suspected_fraud`): the caller commits, then answers 422
    `invalid_card_details`."""
    card = await _lock_physical(tx, user_uuid, card_uuid)
    if card["status"] == "closed":
        raise CardClosed()
    if card_testing.card_refusal(card) is not None and card["activated_at"] is None:
        raise CardFrozenForActivation()
    if card["status"] != "inactive":
        raise CardAlreadyActive()
    if card["fulfilment_status"] not in WITH_THE_HOLDER:
        raise CardNotShipped()
    if not hmac.compare_digest(card["last4"].encode(), last4.encode()):
        await card_testing.note_card_failure(tx, card_uuid, card, now)
        return None
    await card_testing.note_card_passed(tx, card_uuid, card)
    await repository.update_card(tx, card_uuid, {"status": "active", "activated_at": now}, now)
    return await _record(tx, user_uuid, card_uuid)
