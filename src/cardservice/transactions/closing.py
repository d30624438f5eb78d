"""Closing a card's money (docs/controls.md#lifecycle-patch-cardcarduuid close,
docs/security.md#card-details-cvv2-and-issuer-keys single_use): its pending authorizations reversed
(amount and fee back to the card, as `lifecycle.reverse` does), then its whole balance moved to its
account through the ledger as one `card_close` transaction. The caller holds the account's and the
card's locks (docs/ledger.md, "Lock order").
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from cardservice.db.sql import Row, Tx, as_uuid
from cardservice.ledger import account_leg, card_leg, post_entry
from cardservice.transactions import lifecycle
from cardservice.transactions.locks import lock_pending_purchases
from cardservice.transactions.repository import (
    card_balance,
    card_to_close,
    insert_transactions,
    set_card_closed,
    transaction_row,
)


async def return_balance(tx: Tx, user_uuid: uuid.UUID, card: Row, now: datetime) -> None:
    """Reverse the pending authorizations, then move the whole balance to the account."""
    card_uuid, account_uuid = as_uuid(card["uuid"]), as_uuid(card["account_uuid"])
    assert card_uuid is not None and account_uuid is not None
    for purchase in await lock_pending_purchases(tx, card_uuid):
        await lifecycle.reverse(tx, user_uuid, purchase, now, reason="closed")
    balance = await card_balance(tx, card_uuid)
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
    its first capture, transactions/card_types.py): status `closed`, then as `PATCH` closes it."""
    card_uuid = as_uuid(card["uuid"])
    assert card_uuid is not None
    await set_card_closed(tx, card_uuid, now)
    await return_balance(tx, user_uuid, card, now)


async def close_single_use_after_capture(
    tx: Tx, user_uuid: uuid.UUID, purchase: Mapping[str, Any], now: datetime
) -> None:
    """After a capture of a single_use card's purchase, close the card (its account's and
    card's locks are held by the capture): what it still holds is released and its balance
    returned to the account, as `PATCH /card {status: closed}` does."""
    card_uuid = purchase["card_uuid"]
    card = await card_to_close(tx, card_uuid)
    if card is None or card["card_type"] != "single_use" or card["status"] == "closed":
        return
    await close_card(tx, user_uuid, card, now)
