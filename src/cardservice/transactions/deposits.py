"""Deposits: money entering an account from outside (the funding book)."""

from __future__ import annotations

import uuid
from typing import Any

from cardservice.db.sql import Tx
from cardservice.errors import AccountInactive, AccountNotFound
from cardservice.ledger import SystemBook, account_leg, book_leg, post_entry
from cardservice.models.base import utcnow
from cardservice.transactions.locks import lock_account
from cardservice.transactions.repository import insert_transactions, transaction_row


async def deposit(
    tx: Tx,
    user_uuid: uuid.UUID,
    account_uuid: uuid.UUID,
    amount: int,
    description: str = "Deposit",
) -> dict[str, Any]:
    """Credit `amount` minor units to one of the user's active accounts; the transaction."""
    if amount <= 0:
        raise ValueError("a deposit is positive")
    account = await lock_account(tx, user_uuid, account_uuid)
    if account is None:
        raise AccountNotFound()
    if account["status"] != "active":
        raise AccountInactive()
    return await funding_move(tx, user_uuid, account_uuid, account["currency"], amount, description)


async def funding_move(
    tx: Tx,
    user_uuid: uuid.UUID,
    account_uuid: uuid.UUID,
    currency: str,
    amount: int,
    description: str | None,
) -> dict[str, Any]:
    """Money between the outside world (the `funding` book) and an account whose row the
    caller locked: `amount` > 0 a `deposit` credit, < 0 a `withdrawal` debit; one entry."""
    kind, direction = ("deposit", "credit") if amount > 0 else ("withdrawal", "debit")
    now = utcnow()
    row = transaction_row(
        user_uuid=user_uuid,
        account_uuid=account_uuid,
        card_uuid=None,
        type=kind,
        status="completed",
        direction=direction,
        amount=abs(amount),
        currency=currency,
        description=description,
        created_at=now,
        updated_at=now,
    )
    await insert_transactions(tx, [row])
    await post_entry(
        tx,
        kind,
        [
            account_leg(account_uuid, currency, amount),
            book_leg(SystemBook.FUNDING, currency, -amount),
        ],
        reference=row["uuid"],
    )
    return row
