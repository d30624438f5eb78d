"""Changes to one card (PATCH /card/{cardUuid}, docs/controls.md#lifecycle-patch-cardcarduuid),
closing included.

* Own cards only: anybody else's card, a team member's too, is 404.
* A closed card is final: any later change is refused (`card_closed`).
* A physical card not yet activated (`inactive`, docs/cards.md#activation) can be closed, not
  frozen nor made active here (409 `card_inactive`): its holder activates it.
* Freeze and unfreeze set the status; the engine declines a frozen card. A status the
  holder sets also clears the card-testing guard's reason and count (docs/network.md#card-testing):
  setting `active` a card the guard froze as `suspected_fraud` gives it 5 more tries — a
  physical card never activated (frozen after wrong activation digits) goes back to
  `inactive`, to be activated with its digits.
* A card the team's receipt policy froze (`frozen_reason: receipt_missing`) is unfrozen by
  linking the receipts, not here (`receipt_missing`); the holder's own freeze clears that
  reason too, so linking a receipt never unfreezes a card its holder froze.
* A team's owner acts on a member's card through this same use case (`by="owner"`,
  docs/teams.md#a-team-owner-and-the-members-cards; `cards/owner_changes.py` finds the card and
  writes the audit row): status, spending controls and description only; its freeze sets
  `frozen_reason: owner`, which only an owner lifts (`frozen_by_owner` for the holder), and it
  never lifts the holder's own freeze (`frozen_by_holder`) nor the operator's.
* The program's operator acts through this same use case (`by="operator"`, docs/operations.md
  "Acting on cards"): its freeze sets `frozen_reason: operator`, and only the operator
  unfreezes such a card — its holder can change its other fields but not its status
  (`frozen_by_operator`). The operator unfreezes a card the card-testing guard froze, never
  one its holder froze (`frozen_by_holder`) nor one the receipt policy froze
  (`receipt_missing`, as for the holder).
* Closing, in the same unit: the card's pending authorizations are reversed (amount and fee
  back to the card, as `lifecycle.reverse` does), then its whole balance moves to its account
  through the ledger as one `card_close` transaction, and its wallet tokens are deleted.

Locks in the global order (docs/ledger.md): the account (through the card), the card, then
its pending purchases by uuid.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime
from decimal import Decimal
from typing import Any, Literal

import orjson

from cardservice.cards import controls, repository
from cardservice.cards.records import card_record
from cardservice.cards.repository import own_card
from cardservice.cards.schemas import CardChangeRequest
from cardservice.db.sql import Row, Tx
from cardservice.errors import CardNotFound, RuleViolation, ServiceError, ValidationFailed
from cardservice.ledger.minor_units import to_minor
from cardservice.tokens import delete_with_card
from cardservice.transactions import card_testing, closing, lock_card, lock_card_account

_PLAIN_FIELDS = ("status", "description", "holder_name")
Changer = Literal["holder", "operator", "owner"]
OPERATOR = "operator"  # the frozen_reason of an operator's freeze
OWNER = "owner"  # the frozen_reason of a team owner's freeze
OWNER_FIELDS = frozenset({"status", "spending_controls", "description"})


class CardClosed(RuleViolation):
    code, message = "card_closed", "The card is closed; a closed card cannot be changed."


class FrozenForReceipts(RuleViolation):
    code = "receipt_missing"
    message = (
        "The team's receipt policy froze the card: link the missing receipts"
        " (PUT /transaction/{uuid}/receipt) and it is unfrozen."
    )


class FrozenByOperator(RuleViolation):
    code = "frozen_by_operator"
    message = "The program's operator froze the card; only the operator can unfreeze it."


class FrozenByOwner(RuleViolation):
    code = "frozen_by_owner"
    message = "The team's owner froze the card; only the team's owner can unfreeze it."


class CardInactive(ServiceError):
    status_code, code = 409, "card_inactive"
    message = (
        "The card is not activated yet (POST /card/{cardUuid}/activate); it can only be closed."
    )


class FrozenByHolder(RuleViolation):
    code = "frozen_by_holder"
    message = "The card's holder froze it; only the holder can unfreeze it."


def check_status_change(card: Row | Mapping[str, Any], status: str | None, by: Changer) -> None:
    """Whether `by` may set the card's status (None: the status is not changed)."""
    if card["status"] == "closed":
        raise CardClosed()
    if status is None:
        return
    if card["status"] == "inactive" and status != "closed":
        raise CardInactive()
    reason = card["frozen_reason"]
    if reason == "receipt_missing" and status == "active":
        raise FrozenForReceipts()
    if by != "operator" and reason == OPERATOR:
        raise FrozenByOperator()
    if by == "holder" and reason == OWNER:
        raise FrozenByOwner()
    if by != "holder" and status == "active" and card["status"] == "frozen" and reason is None:
        raise FrozenByHolder()


def never_activated(card: Row | Mapping[str, Any]) -> bool:
    """A physical card its holder has not activated (the card-testing guard may have frozen
    it after wrong activation digits, docs/cards.md#activation)."""
    return card["form"] == "physical" and card["activated_at"] is None


def _check_owner_fields(body: CardChangeRequest) -> None:
    """A team's owner changes a member's card's status, controls and description only."""
    others = sorted(set(body.model_fields_set) - OWNER_FIELDS)
    if others:
        message = "a team's owner changes status, spending_controls and description only"
        raise ValidationFailed(errors={name: [message] for name in others})


async def _check_tags(tx: Tx, body: CardChangeRequest) -> None:
    """The tags a control names exist in the tag dictionary."""
    spending = body.spending_controls
    if spending is None:
        return
    named = sorted({*(spending.allowed_tags or ()), *spending.blocked_tags})
    if not named:
        return
    unknown = set(named) - await repository.existing_tags(tx, named)
    if unknown:
        raise ValidationFailed(
            errors={"spending_controls": [f"unknown tags: {', '.join(sorted(unknown))}"]}
        )


def _minor(amount: Decimal | None) -> int | None:
    return None if amount is None else to_minor(amount)


def _columns(body: CardChangeRequest, by: Changer) -> dict[str, Any]:
    """The card's columns the request sets (a field left out is not touched)."""
    sent = body.model_fields_set
    columns: dict[str, Any] = {name: getattr(body, name) for name in _PLAIN_FIELDS if name in sent}
    if "status" in sent:
        columns.update(card_testing.holder_reset())
        if by != "holder" and body.status == "frozen":
            columns["frozen_reason"] = OPERATOR if by == "operator" else OWNER
    if "holder_address" in sent:
        address = body.holder_address
        columns["holder_address"] = (
            None if address is None else orjson.dumps(address.model_dump()).decode()
        )
    replenish = body.auto_replenish
    if replenish is not None:  # enabled: false sends no amounts, and turns it off
        columns["auto_replenish_amount"] = _minor(replenish.amount)
        columns["auto_replenish_min_balance"] = _minor(replenish.min_balance)
    if "spending_controls" in sent:
        columns["spending_controls"] = controls.stored(body.spending_controls)
    return columns


async def _update(tx: Tx, card_uuid: uuid.UUID, columns: dict[str, Any], now: datetime) -> None:
    await repository.update_card(tx, card_uuid, columns, now)


async def change_card(
    tx: Tx,
    user_uuid: uuid.UUID,
    card_uuid: uuid.UUID,
    body: CardChangeRequest,
    now: datetime,
    by: Changer = "holder",
) -> dict[str, Any]:
    """Apply the request to one of the user's cards, all of it or nothing; the card record.
    `by`: its holder, the program's operator or the team's owner acting on the holder's
    card."""
    if by == "owner":
        _check_owner_fields(body)
    if await lock_card_account(tx, user_uuid, card_uuid) is None:
        raise CardNotFound()
    card = await lock_card(tx, card_uuid)
    assert card is not None, "the account's lock was taken through this card"
    check_status_change(card, body.status if "status" in body.model_fields_set else None, by)
    await _check_tags(tx, body)
    columns = _columns(body, by)
    if columns.get("status") == "active" and never_activated(card):
        columns["status"] = "inactive"  # unfrozen, still to be activated with its digits
    if columns:
        await _update(tx, card_uuid, columns, now)
    if body.status == "closed":
        await closing.return_balance(tx, user_uuid, card, now)
        await delete_with_card(tx, card_uuid, now)
    changed = await own_card(tx, user_uuid, card_uuid)
    assert changed is not None
    return card_record(changed)
