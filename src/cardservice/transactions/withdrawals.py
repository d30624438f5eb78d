"""Withdrawals: money leaving an account to the outside (the funding book), an operator debit."""

from __future__ import annotations

import uuid
from typing import Any

from cardservice.db.sql import Tx, as_uuid
from cardservice.errors import AccountNotFound
from cardservice.ledger import InsufficientFunds
from cardservice.transactions.deposits import funding_move
from cardservice.transactions.locks import lock_any_account


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
    user_uuid = as_uuid(account["user_uuid"])
    assert user_uuid is not None
    return await funding_move(
        tx, user_uuid, account_uuid, account["currency"], -amount, description
    )
