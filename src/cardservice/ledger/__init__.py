"""The double-entry ledger: journal entries of postings that sum to zero per currency.

Other packages post an entry through what this module names (`post_entry`, or `post_entries`
for a set, with the legs `account_leg`, `card_leg`, `book_leg` build), never `ledger.entries`
itself (an import-linter contract in pyproject.toml and tests/test_layers.py hold it)."""

from cardservice.ledger.entries import (
    Entry,
    InsufficientFunds,
    Leg,
    Posted,
    SystemBook,
    account_leg,
    book_leg,
    card_leg,
    post_entries,
    post_entry,
)

__all__ = [
    "Entry",
    "InsufficientFunds",
    "Leg",
    "Posted",
    "SystemBook",
    "account_leg",
    "book_leg",
    "card_leg",
    "post_entries",
    "post_entry",
]
