"""User accounts: balances in one currency, and the team owner's read-only view."""

from __future__ import annotations

from cardservice.accounts.schemas import AccountRecord
from cardservice.accounts.service import (
    ACCOUNT_STATUSES,
    account_in,
    any_account,
    create_account,
    every_account,
    get_account,
    own_accounts,
    set_account_status,
)

__all__ = [
    "ACCOUNT_STATUSES",
    "AccountRecord",
    "account_in",
    "any_account",
    "create_account",
    "every_account",
    "get_account",
    "own_accounts",
    "set_account_status",
]
