"""Auto-replenish: after a debit, top a card up from its account when it ran low."""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.ledger.entries import account_leg, card_leg, post_entry
from cardservice.models import Account, Card, Transaction
from cardservice.transactions.balances import balance_of

logger = logging.getLogger("cardservice.replenish")


async def replenish_if_low(
    session: AsyncSession, account: Account, card: Card, now: datetime
) -> Transaction | None:
    """Move `auto_replenish_amount` from the account when the card balance is strictly
    below `auto_replenish_min_balance`; when the account cannot pay, nothing is recorded."""
    amount, threshold = card.auto_replenish_amount, card.auto_replenish_min_balance
    if amount is None or threshold is None or card.status != "active":
        return None
    if await balance_of(session, Card, card.uuid) >= threshold:
        return None
    if account.status != "active" or await balance_of(session, Account, account.uuid) < amount:
        logger.warning(
            "auto-replenish skipped: account cannot pay",
            extra={"card_uuid": str(card.uuid), "account_uuid": str(account.uuid)},
        )
        return None
    transaction = Transaction(
        user_uuid=card.user_uuid,
        account_uuid=account.uuid,
        card_uuid=card.uuid,
        type="auto_replenish",
        status="completed",
        direction="credit",
        amount=amount,
        currency=card.currency,
        fee=0,
        description="Auto-replenish",
        created_at=now,
        updated_at=now,
    )
    session.add(transaction)
    await session.flush()
    await post_entry(
        session,
        "auto_replenish",
        [
            account_leg(account.uuid, card.currency, -amount),
            card_leg(card.uuid, card.currency, amount),
        ],
        reference=transaction.uuid,
    )
    return transaction
