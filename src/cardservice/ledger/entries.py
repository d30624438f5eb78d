"""The ledger: the only door through which money moves.

Invariant: every journal entry is a set of postings that sums to zero per currency, and the
cached balance of every account and card equals the sum of its postings and is never negative.
`post_entry` checks the sum in code (UnbalancedEntry); PostgreSQL checks it again with a
deferred constraint trigger, and both databases refuse a negative balance (CHECK). Entries
are never edited: a correction is a new entry.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy import BigInteger, Table, Update, bindparam, insert, update
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.errors import RuleViolation
from cardservice.models import Account, Card, JournalEntry, Posting
from cardservice.models.base import table_of, utcnow


class SystemBook(StrEnum):
    """The service's own books, the other side of every customer movement."""

    FUNDING = "funding"  # money that entered from outside (deposits)
    MERCHANTS = "merchants"  # money paid out to card merchants
    FEES = "fees"  # fee revenue


class InsufficientFunds(RuleViolation):
    code, message = "insufficient_funds", "The balance does not cover this amount."


class UnbalancedEntry(Exception):
    """A programming error: the legs of an entry must sum to zero per currency."""


@dataclass(frozen=True, slots=True)
class Leg:
    """One posting: exactly one of account, card or book; `amount` signed minor units."""

    currency: str
    amount: int
    account: uuid.UUID | None = None
    card: uuid.UUID | None = None
    book: SystemBook | None = None


def account_leg(account: uuid.UUID, currency: str, amount: int) -> Leg:
    return Leg(currency=currency, amount=amount, account=account)


def card_leg(card: uuid.UUID, currency: str, amount: int) -> Leg:
    return Leg(currency=currency, amount=amount, card=card)


def book_leg(book: SystemBook, currency: str, amount: int) -> Leg:
    return Leg(currency=currency, amount=amount, book=book)


def _check_balanced(legs: Sequence[Leg]) -> None:
    totals: dict[str, int] = defaultdict(int)
    for leg in legs:
        if sum(x is not None for x in (leg.account, leg.card, leg.book)) != 1:
            raise UnbalancedEntry("a leg needs exactly one holder")
        totals[leg.currency] += leg.amount
    if any(totals.values()):
        raise UnbalancedEntry(f"entry does not sum to zero: {dict(totals)}")


_ACCOUNTS = table_of(Account)
_CARDS = table_of(Card)
_ENTRIES = table_of(JournalEntry)
_POSTINGS = table_of(Posting)


@dataclass(frozen=True, slots=True)
class Posted:
    """What `post_entry` recorded: the entry id and the new balance of every account and
    card it moved (read back from the update itself, so no re-select is needed)."""

    entry_id: int
    balances: dict[uuid.UUID, int]


def _move(table: Table) -> Update:
    """`balance = balance + :delta WHERE uuid = :key AND balance + :delta >= 0 RETURNING
    balance`: the move and the refusal in one statement, no read-modify-write."""
    delta = bindparam("delta", type_=BigInteger)
    return (
        update(table)
        .where(table.c.uuid == bindparam("key"), table.c.balance + delta >= 0)
        .values(balance=table.c.balance + delta, updated_at=bindparam("moved_at"))
        .returning(table.c.balance)
    )


# Built once: executing a prebuilt statement with parameters skips building it and
# computing its cache key on every entry.
_MOVE_ACCOUNT = _move(_ACCOUNTS)
_MOVE_CARD = _move(_CARDS)
_INSERT_ENTRY = insert(_ENTRIES).returning(_ENTRIES.c.id)
_INSERT_POSTINGS = insert(_POSTINGS)


async def _apply(session: AsyncSession, move: Update, key: uuid.UUID, delta: int) -> int:
    """Move a cached balance; refuses atomically to go below zero. Returns the new balance."""
    moved = await session.execute(move, {"key": key, "delta": delta, "moved_at": utcnow()})
    balance = moved.scalar_one_or_none()
    if balance is None:
        raise InsufficientFunds()
    return int(balance)


async def post_entry(
    session: AsyncSession, kind: str, legs: Sequence[Leg], reference: uuid.UUID | None = None
) -> Posted:
    """Record one balanced entry and move the balances it touches.

    Balances are moved in a fixed order (accounts, then cards, each by uuid) so that
    concurrent entries lock rows in the same order. Core statements on the tables (no ORM
    unit of work): one insert for the entry, one executemany for its postings, one
    conditional update per account or card.
    """
    legs = [leg for leg in legs if leg.amount != 0]
    _check_balanced(legs)
    entry_id = (
        await session.execute(
            _INSERT_ENTRY, {"kind": kind, "reference": reference, "created_at": utcnow()}
        )
    ).scalar_one()
    await session.execute(
        _INSERT_POSTINGS,
        [
            {
                "entry_id": entry_id,
                "account_uuid": leg.account,
                "card_uuid": leg.card,
                "system_book": leg.book.value if leg.book else None,
                "currency": leg.currency,
                "amount": leg.amount,
            }
            for leg in legs
        ],
    )
    deltas: dict[tuple[int, uuid.UUID], int] = defaultdict(int)
    for leg in legs:
        if leg.account is not None:
            deltas[(0, leg.account)] += leg.amount
        elif leg.card is not None:
            deltas[(1, leg.card)] += leg.amount
    balances: dict[uuid.UUID, int] = {}
    for (rank, key), delta in sorted(
        deltas.items(), key=lambda item: (item[0][0], str(item[0][1]))
    ):
        if delta:
            balances[key] = await _apply(session, _MOVE_CARD if rank else _MOVE_ACCOUNT, key, delta)
    return Posted(int(entry_id), balances)
