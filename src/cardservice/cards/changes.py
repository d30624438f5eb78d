"""Changes to one card (PATCH /card/{cardUuid}, API.md §10), closing included.

* Own cards only: anybody else's card, a team member's too, is 404.
* A closed card is final: any later change is refused (`card_closed`).
* Freeze and unfreeze only set the status; the engine declines a frozen card.
* Closing, in the same unit: the card's pending authorizations are reversed (amount and fee
  back to the card, as `lifecycle.reverse` does), then its whole balance moves to its account
  through the ledger as one `card_close` transaction.

Locks in the global order (docs/ledger.md): the account (through the card), the card, then
its pending purchases by uuid.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from decimal import Decimal
from typing import Any

import orjson

from cardservice.cards import controls
from cardservice.cards.records import card_record
from cardservice.cards.repository import own_card
from cardservice.cards.schemas import CardChangeRequest
from cardservice.errors import CardNotFound, RuleViolation, ValidationFailed
from cardservice.ledger.entries import account_leg, card_leg, post_entry
from cardservice.ledger.money import to_minor
from cardservice.sql import Row, Tx, as_uuid, in_list
from cardservice.transactions import lifecycle
from cardservice.transactions.balances import lock_card_account
from cardservice.transactions.rows import insert_transactions, transaction_row

_LOCK_CARD = (
    "SELECT uuid, account_uuid, currency, status, balance FROM cards WHERE uuid = $1"
    " FOR NO KEY UPDATE"
)
_LOCK_PENDING = (
    "SELECT uuid FROM transactions WHERE card_uuid = $1 AND type = 'card_purchase'"
    " AND status = 'pending' ORDER BY uuid FOR NO KEY UPDATE"
)
_BALANCE = "SELECT balance FROM cards WHERE uuid = $1"
_PLAIN_FIELDS = ("status", "description", "holder_name")


class CardClosed(RuleViolation):
    code, message = "card_closed", "The card is closed; a closed card cannot be changed."


async def _check_tags(tx: Tx, body: CardChangeRequest) -> None:
    """The tags a control names exist in the tag dictionary."""
    spending = body.spending_controls
    if spending is None:
        return
    named = sorted({*(spending.allowed_tags or ()), *spending.blocked_tags})
    if not named:
        return
    known = await tx.rows(
        f"SELECT slug FROM transaction_tags WHERE slug IN {in_list(len(named))}",  # noqa: S608
        *named,
    )
    unknown = set(named) - {row["slug"] for row in known}
    if unknown:
        raise ValidationFailed(
            errors={"spending_controls": [f"unknown tags: {', '.join(sorted(unknown))}"]}
        )


def _minor(amount: Decimal | None) -> int | None:
    return None if amount is None else to_minor(amount)


def _columns(body: CardChangeRequest) -> dict[str, Any]:
    """The card's columns the request sets (a field left out is not touched)."""
    sent = body.model_fields_set
    columns: dict[str, Any] = {name: getattr(body, name) for name in _PLAIN_FIELDS if name in sent}
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
    names = list(columns)
    sets = ", ".join(f"{name} = ${i}" for i, name in enumerate(names, start=3))
    await tx.execute(
        f"UPDATE cards SET updated_at = $2, {sets} WHERE uuid = $1",  # noqa: S608 - column names
        card_uuid,
        now,
        *columns.values(),
    )


async def _close(tx: Tx, user_uuid: uuid.UUID, card: Row, now: datetime) -> None:
    """Reverse the pending authorizations, then move the whole balance to the account."""
    card_uuid, account_uuid = as_uuid(card["uuid"]), as_uuid(card["account_uuid"])
    assert card_uuid is not None and account_uuid is not None
    for pending in await tx.rows(_LOCK_PENDING, card_uuid):
        purchase = as_uuid(pending["uuid"])
        assert purchase is not None
        await lifecycle.reverse(tx, user_uuid, purchase, now)
    balance = int(await tx.value(_BALANCE, card_uuid))
    currency = card["currency"]
    row = transaction_row(
        user_uuid=user_uuid,
        account_uuid=account_uuid,
        card_uuid=card_uuid,
        type="card_close",
        status="completed",
        direction="credit",
        amount=balance,
        currency=currency,
        description="Card closed: balance returned to the account",
        created_at=now,
        updated_at=now,
    )
    await insert_transactions(tx, [row])
    await post_entry(
        tx,
        "card_close",
        [card_leg(card_uuid, currency, -balance), account_leg(account_uuid, currency, balance)],
        reference=row["uuid"],
    )


async def close_card(tx: Tx, user_uuid: uuid.UUID, card: Row, now: datetime) -> None:
    """Close a card whose account and card locks the caller holds (a single_use card after
    its first capture, cards/types.py): status `closed`, then as `PATCH` closes it."""
    card_uuid = as_uuid(card["uuid"])
    assert card_uuid is not None
    await _update(tx, card_uuid, {"status": "closed"}, now)
    await _close(tx, user_uuid, card, now)


async def change_card(
    tx: Tx, user_uuid: uuid.UUID, card_uuid: uuid.UUID, body: CardChangeRequest, now: datetime
) -> dict[str, Any]:
    """Apply the request to one of the user's cards, all of it or nothing; the card record."""
    if await lock_card_account(tx, user_uuid, card_uuid) is None:
        raise CardNotFound()
    card = await tx.row(_LOCK_CARD, card_uuid)
    assert card is not None, "the account's lock was taken through this card"
    if card["status"] == "closed":
        raise CardClosed()
    await _check_tags(tx, body)
    columns = _columns(body)
    if columns:
        await _update(tx, card_uuid, columns, now)
    if body.status == "closed":
        await _close(tx, user_uuid, card, now)
    changed = await own_card(tx, user_uuid, card_uuid)
    assert changed is not None
    return card_record(changed)
