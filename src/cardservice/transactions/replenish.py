"""Auto-replenish: after a debit, top a card up from its account when it ran low."""

from __future__ import annotations

import logging
from datetime import datetime

from cardservice.db.sql import Row, Tx, as_uuid
from cardservice.ledger import account_leg, card_leg, post_entry
from cardservice.transactions.repository import transaction_row, transactions_insert

logger = logging.getLogger("cardservice.replenish")


def replenish_due(card: Row, card_balance: int) -> bool:
    """The card tops itself up and `card_balance` is strictly below its threshold."""
    amount, threshold = card["auto_replenish_amount"], card["auto_replenish_min_balance"]
    if amount is None or threshold is None or card["status"] != "active":
        return False
    return bool(card_balance < threshold)


async def replenish_if_low(
    tx: Tx, account: Row, card: Row, card_balance: int, now: datetime
) -> int:
    """Move `auto_replenish_amount` from the account when the card balance is strictly
    below `auto_replenish_min_balance`; when the account cannot pay, nothing is recorded.

    `account` (uuid, status, balance) was read under the row lock this unit holds and not
    moved since (the debit was the card's); `card` is the card's row as it was locked and
    `card_balance` its balance after the debit, as `post_entry` returned it. Returns the card's
    balance after it (`card_balance` when nothing moved)."""
    if not replenish_due(card, card_balance):
        return card_balance
    amount = card["auto_replenish_amount"]
    account_uuid, card_uuid = as_uuid(account["uuid"]), as_uuid(card["uuid"])
    assert account_uuid is not None and card_uuid is not None
    if account["status"] != "active" or account["balance"] < amount:
        logger.warning(
            "auto-replenish skipped: account cannot pay",
            extra={"card_uuid": str(card_uuid), "account_uuid": str(account_uuid)},
        )
        return card_balance
    currency = card["currency"]
    row = transaction_row(
        user_uuid=as_uuid(card["user_uuid"]),
        account_uuid=account_uuid,
        card_uuid=card_uuid,
        type="auto_replenish",
        status="completed",
        direction="credit",
        amount=amount,
        currency=currency,
        description="Auto-replenish",
        created_at=now,
        updated_at=now,
    )
    posted = await post_entry(
        tx,
        "auto_replenish",
        [account_leg(account_uuid, currency, -amount), card_leg(card_uuid, currency, amount)],
        reference=row["uuid"],
        insert=transactions_insert([row]),
    )
    return int(posted.balances.get(card_uuid, card_balance + amount))
