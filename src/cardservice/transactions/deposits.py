"""Deposits: money entering an account from outside (the funding book)."""

from __future__ import annotations

import uuid

from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.accounts.repository import own_account_for_update
from cardservice.accounts.service import AccountNotFound
from cardservice.cards.purchase import AccountInactive
from cardservice.ledger.entries import SystemBook, account_leg, book_leg, post_entry
from cardservice.models import Transaction
from cardservice.models.base import utcnow
from cardservice.sql import session_tx


async def deposit(
    session: AsyncSession,
    user_uuid: uuid.UUID,
    account_uuid: uuid.UUID,
    amount: int,
    description: str = "Deposit",
) -> Transaction:
    """Credit `amount` minor units to one of the user's active accounts."""
    if amount <= 0:
        raise ValueError("a deposit is positive")
    account = await own_account_for_update(session, user_uuid, account_uuid)
    if account is None:
        raise AccountNotFound()
    if account.status != "active":
        raise AccountInactive()
    now = utcnow()
    transaction = Transaction(
        user_uuid=user_uuid,
        account_uuid=account.uuid,
        card_uuid=None,
        type="deposit",
        status="completed",
        direction="credit",
        amount=amount,
        currency=account.currency,
        fee=0,
        description=description,
        created_at=now,
        updated_at=now,
    )
    session.add(transaction)
    await session.flush()
    await post_entry(
        await session_tx(session),
        "deposit",
        [
            account_leg(account.uuid, account.currency, amount),
            book_leg(SystemBook.FUNDING, account.currency, -amount),
        ],
        reference=transaction.uuid,
    )
    return transaction
