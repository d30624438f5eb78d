"""Replacing a card (docs/operations.md#running-a-program): `POST /card/{cardUuid}/replace
{reason}`.

The new card has a new number and expiry (its program's validity, 36 months without one)
on the same BIN and account, and the old card's description, holder, auto-replenish,
spending controls, card type (and locked merchant), favorite flag and sort position. The
old card is closed with `closed_reason` and `replaced_by`; the new one shows `replaces`.
The old card's balance (what is available on it: its holds are already out of it, in the
`holds` book) moves to the new card in one `card_transfer` entry, shown as a debit
transaction on the old card and a credit on the new. Its pending holds stay and still
capture; what they release later goes to the card that replaced it
(`transactions.repository.payee`, used by transactions/lifecycle.py). Its wallet tokens
move to the new card (same DPAN: the wallet keeps working, docs/network.md#wallet-tokens).

Locks in the global order (docs/ledger.md): the account (through the card), then the card;
the new card is inserted under the account's lock, so an authorization on the old card is
answered either before the replacement (its hold stays on the old card, the rest moves) or
after it (declined `card_closed`).

The program's operator replaces a card through this same use case (`by="operator"`,
docs/operations.md "Acting on cards"); its holder cannot replace a card the operator froze
(`frozen_by_operator`: the new card would undo the freeze).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import orjson

from cardservice.cards.changes import Changer, check_status_change
from cardservice.cards.purchase import _draw_number, _insert_cards, physical_columns
from cardservice.cards.records import card_record
from cardservice.cards.repository import CARD_COLUMNS, close_replaced, own_card, program_validity
from cardservice.db.sql import Tx, as_uuid
from cardservice.errors import CardNotFound
from cardservice.ledger import card_leg, post_entry
from cardservice.security import CardCipher
from cardservice.tokens import follow_replacement
from cardservice.transactions import (
    insert_transactions,
    lock_card_account,
    lock_card_columns,
    transaction_row,
)
from cardservice.transactions.program_rules import expiry_after

# Carried to the new card as they are; the rest is new or set below.
_CARRIED = (
    "user_uuid", "account_uuid", "bin_uuid", "bin", "brand", "currency", "is_favorite",
    "sort_order", "description", "holder_name", "holder_address", "auto_replenish_amount",
    "auto_replenish_min_balance", "spending_controls", "card_type", "locked_merchant",
)  # fmt: skip
# (a physical card's replacement is a new physical card sent to the same address, inactive
# until activated, without the old card's PIN: docs/cards.md#physical-cards)


async def _new_card(
    tx: Tx, cipher: CardCipher, old: dict[str, Any], now: datetime
) -> dict[str, Any]:
    month, year = expiry_after(now, await program_validity(tx, old["user_uuid"]))
    card = {name: old[name] for name in _CARRIED}
    if isinstance(card["holder_address"], dict):  # PostgreSQL's JSON read back as an object
        card["holder_address"] = orjson.dumps(card["holder_address"]).decode()
    shipping = old["shipping"]
    if isinstance(shipping, str | bytes):
        shipping = orjson.loads(shipping)
    card.update(physical_columns(old["form"], shipping, now))
    card.update(
        uuid=uuid.uuid4(),
        expiry_month=month,
        expiry_year=year,
        balance=0,  # the transfer moves the old card's balance in
        external_id=None,
        created_at=now,
        updated_at=now,
        closed_reason=None,
        frozen_reason=None,
        verification_failures=None,
        replaces=old["uuid"],
        replaced_by=None,
    )
    _draw_number(cipher, old["bin"], card)
    await _insert_cards(tx, cipher, old["bin"], [card])
    return card


async def _transfer(tx: Tx, old: dict[str, Any], new: dict[str, Any], now: datetime) -> None:
    """The old card's balance to the new card: one entry, a debit and a credit row."""
    amount, currency = int(old["balance"]), old["currency"]
    if amount == 0:
        return
    common = {
        "user_uuid": old["user_uuid"],
        "account_uuid": old["account_uuid"],
        "type": "card_transfer",
        "status": "completed",
        "amount": amount,
        "currency": currency,
        "created_at": now,
        "updated_at": now,
    }
    out = transaction_row(
        **common, card_uuid=old["uuid"], direction="debit", description="Moved to replacement card"
    )
    into = transaction_row(
        **common,
        card_uuid=new["uuid"],
        direction="credit",
        description="Moved from replaced card",
        parent_uuid=out["uuid"],
    )
    await insert_transactions(tx, [out, into])
    await post_entry(
        tx,
        "card_transfer",
        [card_leg(old["uuid"], currency, -amount), card_leg(new["uuid"], currency, amount)],
        reference=out["uuid"],
    )


async def replace_card(
    tx: Tx,
    cipher: CardCipher,
    user_uuid: uuid.UUID,
    card_uuid: uuid.UUID,
    reason: str,
    now: datetime,
    by: Changer = "holder",
) -> dict[str, Any]:
    """Replace one of the user's cards that is not closed; the new card's record. `by`: its
    holder, or the program's operator acting on the holder's card."""
    if await lock_card_account(tx, user_uuid, card_uuid) is None:
        raise CardNotFound()
    row = await lock_card_columns(tx, card_uuid, CARD_COLUMNS)
    assert row is not None, "the account's lock was taken through this card"
    old = dict(zip(CARD_COLUMNS, row, strict=True))
    for key in ("uuid", "user_uuid", "account_uuid", "bin_uuid"):
        old[key] = as_uuid(old[key])
    check_status_change(old, "closed", by)  # the old card is closed
    new = await _new_card(tx, cipher, old, now)
    await close_replaced(tx, card_uuid, reason, new["uuid"], now)
    await follow_replacement(tx, card_uuid, new["uuid"], now)
    await _transfer(tx, old, new, now)
    replacement = await own_card(tx, user_uuid, new["uuid"])
    assert replacement is not None
    return card_record(replacement)
