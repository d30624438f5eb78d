"""Auto-replenish: after a debit, top a card up from its account when it ran low."""

from __future__ import annotations

import logging
import uuid
from datetime import datetime

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.ledger.entries import account_leg, card_leg, post_entry
from cardservice.models import Transaction
from cardservice.models.base import AnyRow, table_of

logger = logging.getLogger("cardservice.replenish")

_INSERT_TRANSACTION = insert(table_of(Transaction))


async def replenish_if_low(
    session: AsyncSession, account: AnyRow, card: AnyRow, card_balance: int, now: datetime
) -> uuid.UUID | None:
    """Move `auto_replenish_amount` from the account when the card balance is strictly
    below `auto_replenish_min_balance`; when the account cannot pay, nothing is recorded.

    `account` (uuid, status, balance) was read under the row lock this unit holds and not
    moved since (the debit was the card's); `card_balance` is the card's balance after the
    debit, as `post_entry` returned it. Returns the new transaction's uuid, if any."""
    amount, threshold = card.auto_replenish_amount, card.auto_replenish_min_balance
    if amount is None or threshold is None or card.status != "active":
        return None
    if card_balance >= threshold:
        return None
    if account.status != "active" or account.balance < amount:
        logger.warning(
            "auto-replenish skipped: account cannot pay",
            extra={"card_uuid": str(card.uuid), "account_uuid": str(account.uuid)},
        )
        return None
    transaction_uuid = uuid.uuid4()
    await session.execute(
        _INSERT_TRANSACTION,
        {
            "uuid": transaction_uuid,
            "user_uuid": card.user_uuid,
            "account_uuid": account.uuid,
            "card_uuid": card.uuid,
            "type": "auto_replenish",
            "status": "completed",
            "direction": "credit",
            "amount": amount,
            "currency": card.currency,
            "fee": 0,
            "description": "Auto-replenish",
            "created_at": now,
            "updated_at": now,
        },
    )
    await post_entry(
        session,
        "auto_replenish",
        [
            account_leg(account.uuid, card.currency, -amount),
            card_leg(card.uuid, card.currency, amount),
        ],
        reference=transaction_uuid,
    )
    return transaction_uuid
