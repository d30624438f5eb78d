"""Withdrawals: money leaving an account to the outside (the funding book), an operator debit."""

from __future__ import annotations

import uuid
from typing import Any

from cardservice.errors import AccountNotFound
from cardservice.ledger.entries import (
    InsufficientFunds,
    SystemBook,
    account_leg,
    book_leg,
    post_entry,
)
from cardservice.models.base import utcnow
from cardservice.sql import Tx, as_uuid
from cardservice.transactions.locks import lock_any_account
from cardservice.transactions.rows import insert_transactions, transaction_row


async def withdraw(
    tx: Tx, account_uuid: uuid.UUID, amount: int, description: str = "Withdrawal"
) -> dict[str, Any]:
    """Debit `amount` minor units from the account (any status: the operator may empty a
    frozen or closed account); `insufficient_funds` when its balance does not cover it.
    The account row is locked first, so a debit and card purchases on one account are
    answered one after the other and the balance never goes below zero."""
    if amount <= 0:
        raise ValueError("a withdrawal is positive")
    account = await lock_any_account(tx, account_uuid)
    if account is None:
        raise AccountNotFound()
    if account["balance"] < amount:
        raise InsufficientFunds("The account balance does not cover this debit.")
    now, currency = utcnow(), account["currency"]
    row = transaction_row(
        user_uuid=as_uuid(account["user_uuid"]),
        account_uuid=account_uuid,
        card_uuid=None,
        type="withdrawal",
        status="completed",
        direction="debit",
        amount=amount,
        currency=currency,
        description=description,
        created_at=now,
        updated_at=now,
    )
    await insert_transactions(tx, [row])
    await post_entry(
        tx,
        "withdrawal",
        [
            account_leg(account_uuid, currency, -amount),
            book_leg(SystemBook.FUNDING, currency, amount),
        ],
        reference=row["uuid"],
    )
    return row
