"""The ledger: the only door through which money moves.

Invariant: every journal entry is a set of postings that sums to zero per currency, and the
cached balance of every account and card equals the sum of its postings and is never negative.
Entries are never edited: a correction is a new entry.

`post_entry` checks the sum in code (UnbalancedEntry), and both databases hold the same rules
themselves (migration 20261123_02): an entry's postings are written first and the entry row
last; inserting the entry checks that its postings sum to zero per currency, a posting for an
entry that already exists is refused, and a posting without its entry is refused (PostgreSQL:
at the end of its statement, which must write the entry too, migration 20261128_04; SQLite: at
commit, by the foreign key). Postings and entries are append-only; a posting's currency is
its holder's; balances are never negative (CHECK).

Entries are written unsealed: the sealer chains them after their unit commits
(`ledger.sealer`, `ledger.chain`: `hash` over the canonical content and the previous entry's
hash, in seal order), so a unit touches no row shared with units of unrelated accounts for
the chain or the day totals.
"""

from __future__ import annotations

import functools
import uuid
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from cardservice.db.sql import Insert, Tx, as_uuid, insert_sql, merged, row_args, write_insert
from cardservice.errors import RuleViolation
from cardservice.models import Account, Card, JournalEntry, Posting
from cardservice.models.base import table_of, utcnow
from cardservice.observability import metrics


class SystemBook(StrEnum):
    """The service's own books, the other side of every customer movement."""

    FUNDING = "funding"  # money that entered from outside (deposits)
    HOLDS = "holds"  # money authorized on cards and not yet captured or released
    MERCHANTS = "merchants"  # money captured by card merchants
    FEES = "fees"  # fee revenue
    # what cardholders owe: stand-in authorizations beyond their card's balance
    # (docs/network.md#the-network-interface-iso-8583 0120)
    CARDHOLDER_RECEIVABLES = "cardholder_receivables"
    # disputes between their steps: what was credited to cards ahead of an outcome, against
    # what was claimed from the network (docs/disputes.md#money)
    DISPUTES = "disputes"


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
        if (leg.account is not None) + (leg.card is not None) + (leg.book is not None) != 1:
            raise UnbalancedEntry("a leg needs exactly one holder")
        totals[leg.currency] += leg.amount
    if any(totals.values()):
        raise UnbalancedEntry(f"entry does not sum to zero: {dict(totals)}")


_ACCOUNTS = table_of(Account).name
_CARDS = table_of(Card).name
_ENTRIES = table_of(JournalEntry).name
_POSTINGS = table_of(Posting).name


@dataclass(frozen=True, slots=True)
class Posted:
    """What `post_entry` moved: the new balance of every account and card (read back from the
    update itself, or worked out from the balances the unit holds: no re-select)."""

    balances: dict[uuid.UUID, int]


def _move(table: str) -> str:
    """Move a cached balance by $2 unless it would go below zero, in one statement (no
    read-modify-write): no row back means refused."""
    return (
        f"UPDATE {table} SET balance = balance + $2, updated_at = $3"  # noqa: S608 - a table name
        " WHERE uuid = $1 AND balance + $2 >= 0 RETURNING balance"
    )


_MOVE_ACCOUNT = _move(_ACCOUNTS)
_MOVE_CARD = _move(_CARDS)
_INSERT_ENTRY = insert_sql(_ENTRIES, ("id", "kind", "reference", "created_at"))
# SQLite: the next entry id, taken before its postings are written. SQLite has one writer at
# a time, so the next rowid cannot be taken by anybody else before this unit commits.
_NEXT_ENTRY_ID = f"SELECT coalesce(max(id), 0) + 1 FROM {_ENTRIES}"  # noqa: S608 - a table name
_POSTING_COLUMNS = ("entry_id", "account_uuid", "card_uuid", "system_book", "currency", "amount")
# PostgreSQL: the entry id, its postings, the entry, the rows it books (`insert`) and the
# balances it moves, in one round trip. The entry's row is made from the count of the
# postings, so they are written first (the postings' trigger finds no entry yet); the entry's
# AFTER trigger runs once the statement is done and checks their sum. The sub-statements run
# in the order each waits on the one before: the booked rows, the postings, the entry, the
# account's balance, the card's. A balance that would go below zero is not moved and comes
# back NULL (refused: InsufficientFunds, the unit rolls back).
_ENTRY_ARGS = 8  # $1 kind, $2 reference, $3 now, $4-$8 the postings' columns


@functools.lru_cache(maxsize=64)
def _write_entry_pg(
    insert: str | None,
    booked: int,
    account: bool,
    card: bool,
    then: str | None = None,
    unread: bool = False,
) -> str:
    """The statement for an insert (its SQL numbered from after the moves' arguments, `booked`
    rows; `then`, the rows written with them, numbered after its), and one account's and/or
    one card's balance moved ($9, $10: uuid, delta; the card's after the account's).
    `unread`: a statement whose rows nobody reads (`Tx.with_commit`): a balance below zero is
    not left unmoved but refused by the table's `balance_not_negative` check, which fails
    the unit. Our table and column names only (S608)."""
    ctes = [f"e AS (SELECT nextval(pg_get_serial_sequence('{_ENTRIES}', 'id')) AS id)"]
    after = ""
    if insert is not None:
        ctes.append(f"t AS ({insert} RETURNING 1)")
        after = " WHERE (SELECT count(*) FROM t) = %d" % booked  # noqa: S608, UP031
    if then is not None:
        ctes.append(f"w AS ({then})")
    columns = ", ".join(_POSTING_COLUMNS)
    ctes.append(
        f"p AS (INSERT INTO {_POSTINGS} ({columns})"  # noqa: S608
        " SELECT e.id, v.account_uuid, v.card_uuid, v.system_book, v.currency, v.amount"
        " FROM e, unnest(CAST($4 AS uuid[]), CAST($5 AS uuid[]), CAST($6 AS text[]),"
        " CAST($7 AS text[]), CAST($8 AS bigint[]))"
        f" AS v(account_uuid, card_uuid, system_book, currency, amount){after} RETURNING 1)"
    )
    ctes.append(
        f"j AS (INSERT INTO {_ENTRIES} (id, kind, reference, created_at)"  # noqa: S608
        " SELECT e.id, $1, $2, $3 FROM e WHERE (SELECT count(*) FROM p) > 0 RETURNING id)"
    )
    selected, previous, n = ["(SELECT id FROM j) AS id"], "j", _ENTRY_ARGS
    for name, table, moved in (("a", _ACCOUNTS, account), ("c", _CARDS, card)):
        if moved:
            delta, key = f"${n + 2}", f"${n + 1}"
            enough = "" if unread else f" AND balance + {delta} >= 0"
            ctes.append(
                f"{name} AS (UPDATE {table} SET balance = balance + {delta}"  # noqa: S608
                f", updated_at = $3 WHERE uuid = {key}{enough}"
                f" AND (SELECT count(*) FROM {previous}) = 1 RETURNING balance)"
            )
            selected.append(f"(SELECT balance FROM {name}) AS {name}")  # noqa: S608
            previous, n = name, n + 2
    return f"WITH {', '.join(ctes)} SELECT {', '.join(selected)}"


async def _write_entry_pg_moved(
    tx: Tx,
    kind: str,
    legs: Sequence[Leg],
    reference: uuid.UUID | None,
    moves: dict[tuple[int, uuid.UUID], int],
    insert: Insert | None,
) -> dict[uuid.UUID, int]:
    """PostgreSQL, one statement: the entry with its postings and `insert`, and the `moves`
    (at most one account's and one card's: `_foldable`). The new balances; InsufficientFunds
    when a balance would go below zero."""
    statement, args, moved = _entry_statement(kind, legs, reference, moves, insert)
    row = await tx.row(statement, *args)
    assert row is not None and row["id"] is not None, "the entry is written with its postings"
    balances: dict[uuid.UUID, int] = {}
    for name, key in moved:
        if row[name] is None:
            raise InsufficientFunds()
        balances[key] = int(row[name])
    return balances


def _entry_statement(
    kind: str,
    legs: Sequence[Leg],
    reference: uuid.UUID | None,
    moves: dict[tuple[int, uuid.UUID], int],
    insert: Insert | None,
    unread: bool = False,
) -> tuple[str, list[Any], list[tuple[str, uuid.UUID]]]:
    """`_write_entry_pg_moved`'s statement, its arguments, and the holders it moves by the
    name of their balance in its row."""
    now = utcnow()
    account = card = None  # at most one of each (`_foldable`)
    for (rank, key), delta in moves.items():
        if rank == 0:
            account = (key, delta)
        else:
            card = (key, delta)
    args: list[Any] = [
        kind, reference, now,
        [leg.account for leg in legs], [leg.card for leg in legs],
        [leg.book.value if leg.book else None for leg in legs],
        [leg.currency for leg in legs], [leg.amount for leg in legs],
    ]  # fmt: skip
    for moving in (account, card):
        if moving is not None:
            args += [moving[0], moving[1]]
    sql = then = None
    if insert is not None:
        sql = insert.sql(start=len(args) + 1)
        args += insert.args()
        if insert.then is not None:
            then = insert.then.sql(start=len(args) + 1)
            args += insert.then.args()
    booked = 0 if insert is None else len(insert.rows)
    has = (account is not None, card is not None)
    statement = _write_entry_pg(sql, booked, *has, then, unread)
    moved = [(name, m[0]) for name, m in (("a", account), ("c", card)) if m is not None]
    return statement, args, moved


async def _write_entry(tx: Tx, kind: str, legs: Sequence[Leg], reference: uuid.UUID | None) -> None:
    """SQLite: write the postings, then the entry."""
    entry_id = int(await tx.value(_NEXT_ENTRY_ID))
    postings = [
        {
            "entry_id": entry_id,
            "account_uuid": leg.account,
            "card_uuid": leg.card,
            "system_book": leg.book.value if leg.book else None,
            "currency": leg.currency,
            "amount": leg.amount,
        }
        for leg in legs
    ]
    await tx.execute(
        insert_sql(_POSTINGS, _POSTING_COLUMNS, len(postings)),
        *row_args(_POSTING_COLUMNS, postings),
    )
    await tx.execute(_INSERT_ENTRY, entry_id, kind, reference, utcnow())


async def _apply(tx: Tx, move: str, key: uuid.UUID, delta: int) -> int:
    """Move a cached balance; refuses atomically to go below zero. Returns the new balance."""
    balance = await tx.value(move, key, delta, utcnow())
    if balance is None:
        raise InsufficientFunds()
    return int(balance)


def _foldable(moves: dict[tuple[int, uuid.UUID], int]) -> bool:
    """PostgreSQL moves the balances in the entry's statement when they are at most one
    account's and one card's (an authorization's, a card's top-up); more are moved one
    statement each, in the order below."""
    ranks = [rank for rank, _key in moves]
    return ranks.count(0) <= 1 and ranks.count(1) <= 1


async def post_entry(
    tx: Tx,
    kind: str,
    legs: Sequence[Leg],
    reference: uuid.UUID | None = None,
    insert: Insert | None = None,
    held: Mapping[uuid.UUID, int] | None = None,
) -> Posted:
    """Record one balanced entry and move the balances it touches (an entry whose legs are
    all zero records nothing but `insert`); `insert`: rows the entry books (its transaction),
    written first, in the same statement on PostgreSQL.

    The unit already holds the rows it moves (docs/ledger.md, "Lock order"); balances are
    moved accounts first, then cards, each by uuid. Statements on PostgreSQL: one — the rows,
    the postings, the entry, and the balances of up to one account and one card; each further
    balance one more. SQLite: the rows, the entry id, the postings, the entry, and one
    conditional update per account or card.

    `held`: the balance of every holder the entry moves, as this unit locked and read it with
    nothing moved since (an authorization's card). The new balances are then worked out here
    (InsufficientFunds when one would go below zero) and the entry is left for later
    (`Tx.later`, `_write_held`): on PostgreSQL written with the other entries left so, in one
    statement, before the unit's next statement or in its COMMIT's round trip — a lane's
    requests' entries in one (docs/ledger.md, "Entries written together"); SQLite writes it
    at once."""
    legs = [leg for leg in legs if leg.amount != 0]
    _check_balanced(legs)
    if not legs:
        if insert is not None:
            await write_insert(tx, insert)
        return Posted({})
    moves = _moves(legs)
    if held is not None and all(key in held for _rank, key in moves):
        balances = {key: held[key] + delta for (_rank, key), delta in moves.items()}
        if any(balance < 0 for balance in balances.values()):
            raise InsufficientFunds()
        await tx.later(_write_held, (Entry(kind, legs, reference), insert))
        return Posted(balances)
    return Posted(await _post(tx, kind, legs, reference, insert, moves))


async def _post(
    tx: Tx,
    kind: str,
    legs: Sequence[Leg],
    reference: uuid.UUID | None,
    insert: Insert | None,
    moves: dict[tuple[int, uuid.UUID], int],
) -> dict[uuid.UUID, int]:
    """`post_entry`'s statements, now: the new balances."""
    tx.after_commit.append(functools.partial(metrics.count_postings, len(legs)))
    balances = {}
    if tx.dialect == "postgresql":
        folded = moves if _foldable(moves) else {}
        balances = await _write_entry_pg_moved(tx, kind, legs, reference, folded, insert)
    else:
        if insert is not None:
            await write_insert(tx, insert)
        await _write_entry(tx, kind, legs, reference)
        folded = {}
    for (rank, key), delta in moves.items():
        if (rank, key) not in folded:
            balances[key] = await _apply(tx, _MOVE_CARD if rank else _MOVE_ACCOUNT, key, delta)
    return balances


async def _write_held(tx: Tx, held: list[tuple[Entry, Insert | None]]) -> None:
    """The entries `post_entry` left for later (`held`), in their order, with their rows (of
    one table: an authorization's transaction with its event; `merged`): an entry alone in
    its own statement (`post_entry`'s, a few arguments), more as one `post_entries`
    statement. Before a statement of the unit, run and checked as any entry; at its COMMIT
    (`Tx.committing`), sent in the COMMIT's round trip (`Tx.with_commit`), where the tables'
    checks refuse a balance below zero. Their balances were worked out already: a refusal
    here is a holder moved behind the unit's back, and fails the unit."""
    entries = [entry for entry, _insert in held]
    inserts = [insert for _entry, insert in held if insert is not None]
    insert = merged(inserts) if inserts else None
    legs = [leg for entry in entries for leg in entry.legs]
    moves = _moves(legs)
    if not tx.committing:
        if len(entries) == 1:
            entry = entries[0]
            await _post(tx, entry.kind, legs, entry.reference, insert, moves)
        else:
            await post_entries(tx, entries, insert)
        return
    if len(entries) == 1 and _foldable(moves):  # sent with the COMMIT: nobody reads its rows
        entry = entries[0]
        sql, args, _moved = _entry_statement(
            entry.kind, legs, entry.reference, moves, insert, unread=True
        )
    else:
        sql, args, _ = _entries_statement(entries, insert, unread=True)
    tx.after_commit.append(functools.partial(metrics.count_postings, len(legs)))
    await tx.with_commit(sql, *args)


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of `post_entries`."""

    kind: str
    legs: Sequence[Leg]
    reference: uuid.UUID | None = None


# PostgreSQL: many entries, their postings, the rows they book (`insert`, and the rows written
# with those) and the balances they move, in one statement, as `_write_entry_pg` writes one:
# the rows first, the ids taken, the postings written, then the entries (their AFTER trigger
# checks each entry's sum once the statement is done), then the accounts' balances, then the
# cards' (each sub-statement waits on the one before). A balance that would go below zero is
# not moved (no row back for it: refused).
# $1-$3 the entries, $4-$9 the postings, $10 now, $11-$13 the moves, $14 how many entries, $15
# how many accounts move
_ENTRIES_ARGS = 13


@functools.lru_cache(maxsize=64)
def _write_entries_pg(
    insert: str | None, booked: int, then: str | None, unread: bool = False
) -> str:
    """The statement for `post_entries`; `insert` numbered from after its own arguments
    (`$booked`: how many rows it writes), `then` after it; `unread`: as `_write_entry_pg`'s.
    Our table and column names only (S608)."""
    ctes, after = [], ""
    if insert is not None:
        ctes.append(f"t AS ({insert} RETURNING 1)")
        after = f" WHERE (SELECT count(*) FROM t) = ${booked}"  # noqa: S608
    if then is not None:
        ctes.append(f"w AS ({then})")
    columns = ", ".join(_POSTING_COLUMNS)
    ctes += [
        "k AS (SELECT k.n, k.kind, k.reference,"  # noqa: S608
        f" nextval(pg_get_serial_sequence('{_ENTRIES}', 'id')) AS id"
        " FROM unnest(CAST($1 AS int[]), CAST($2 AS text[]), CAST($3 AS uuid[]))"
        " AS k(n, kind, reference) ORDER BY k.n)",
        f"p AS (INSERT INTO {_POSTINGS} ({columns})"  # noqa: S608
        " SELECT k.id, v.account_uuid, v.card_uuid, v.system_book, v.currency, v.amount"
        " FROM (SELECT * FROM unnest(CAST($4 AS int[]), CAST($5 AS uuid[]), CAST($6 AS uuid[]),"
        " CAST($7 AS text[]), CAST($8 AS text[]), CAST($9 AS bigint[]))"
        f" AS v(n, account_uuid, card_uuid, system_book, currency, amount){after}) v"
        " JOIN k ON k.n = v.n RETURNING 1)",
        f"j AS (INSERT INTO {_ENTRIES} (id, kind, reference, created_at)"  # noqa: S608
        " SELECT id, kind, reference, $10 FROM k WHERE (SELECT count(*) FROM p) > 0"
        " RETURNING id)",
    ]
    previous, count = "j", _ENTRIES_ARGS + 1
    for name, table in (("a", _ACCOUNTS), ("c", _CARDS)):
        ctes.append(
            f"{name} AS (UPDATE {table} x SET balance = x.balance + m.delta, updated_at = $10"  # noqa: S608
            " FROM unnest(CAST($11 AS uuid[]), CAST($12 AS bigint[]), CAST($13 AS int[]))"
            f" AS m(uuid, delta, rank) WHERE m.rank = {0 if name == 'a' else 1}"
            f" AND x.uuid = m.uuid{'' if unread else ' AND x.balance + m.delta >= 0'}"
            f" AND (SELECT count(*) FROM {previous}) = ${count} RETURNING x.uuid, x.balance)"
        )
        previous, count = name, count + 1
    return (
        f"WITH {', '.join(ctes)} SELECT (SELECT count(*) FROM j) AS entries,"  # noqa: S608
        " m.uuid, m.balance"
        " FROM (SELECT uuid, balance FROM a UNION ALL SELECT uuid, balance FROM c) m"
        " RIGHT JOIN (SELECT 1) one ON true"
    )


def _moves(legs: Sequence[Leg]) -> dict[tuple[int, uuid.UUID], int]:
    """What the legs move of each account (rank 0) and card (rank 1), accounts first, each
    by uuid (docs/ledger.md, "Lock order"); nothing for a holder they leave as it was."""
    deltas: dict[tuple[int, uuid.UUID], int] = defaultdict(int)
    for leg in legs:
        if leg.account is not None:
            deltas[(0, leg.account)] += leg.amount
        elif leg.card is not None:
            deltas[(1, leg.card)] += leg.amount
    moved = [(key, delta) for key, delta in deltas.items() if delta]
    if len(moved) > 1:  # an authorization's moves one card: nothing to order
        moved.sort(key=lambda item: (item[0][0], str(item[0][1])))
    return dict(moved)


def _insert_sql(insert: Insert, start: int) -> tuple[str, list[Any]]:
    """An insert's statement and arguments from `start`: one array a column when its types
    are known (the same text whatever the count of rows), else a row of values each."""
    if insert.types is not None:
        return insert.unnest_sql(start), list(insert.unnest_args())
    return insert.sql(start=start), insert.args()


async def post_entries(
    tx: Tx, entries: Sequence[Entry], insert: Insert | None = None
) -> dict[uuid.UUID, int]:
    """Record many balanced entries in their order, with `insert` (the rows they book,
    written first) and the balances they move: one statement on PostgreSQL, whatever the
    entries, rows and holders; on SQLite the rows, then `post_entry` each. The new balance
    of every account and card moved; InsufficientFunds (the unit must roll back) when one
    would go below zero. The unit holds the rows it moves (docs/ledger.md, "Lock order").

    `post_entry` stays the statement of one entry: an authorization's, shaped for at most
    one account and one card (a few arguments, no arrays to build); this is the statement of
    a set (a clearing unit's force posts, a file's claims on the network)."""
    kept = [(e, [leg for leg in e.legs if leg.amount != 0]) for e in entries]
    kept = [(e, legs) for e, legs in kept if legs]
    for _entry, legs in kept:
        _check_balanced(legs)
    if tx.dialect != "postgresql" or not kept:
        if insert is not None:
            await write_insert(tx, insert)
        balances: dict[uuid.UUID, int] = {}
        for entry, legs in kept:
            balances |= (await post_entry(tx, entry.kind, legs, entry.reference)).balances
        return balances
    sql, args, moves = _entries_statement([e for e, _legs in kept], insert)
    posted = sum(len(legs) for _entry, legs in kept)
    tx.after_commit.append(functools.partial(metrics.count_postings, posted))
    rows = await tx.rows(sql, *args)
    assert rows and rows[0]["entries"] == len(kept), "the entries are written with their postings"
    balances = {
        key: int(row["balance"]) for row in rows if (key := as_uuid(row["uuid"])) is not None
    }
    if len(balances) != len(moves):
        raise InsufficientFunds()
    return balances


def _entries_statement(
    entries: Sequence[Entry], insert: Insert | None, unread: bool = False
) -> tuple[str, list[Any], dict[tuple[int, uuid.UUID], int]]:
    """`post_entries`' statement for entries of legs not zero, its arguments, and the moves
    (`_moves`) it makes; `unread`: as `_write_entry_pg`'s."""
    kept = [(e, [leg for leg in e.legs if leg.amount != 0]) for e in entries]
    kept = [(e, legs) for e, legs in kept if legs]
    postings = [(n, leg) for n, (_e, legs) in enumerate(kept) for leg in legs]
    moves = _moves([leg for _n, leg in postings])
    args: list[Any] = [
        list(range(len(kept))), [e.kind for e, _ in kept], [e.reference for e, _ in kept],
        [n for n, _ in postings], [leg.account for _, leg in postings],
        [leg.card for _, leg in postings],
        [leg.book.value if leg.book else None for _, leg in postings],
        [leg.currency for _, leg in postings], [leg.amount for _, leg in postings],
        utcnow(), [key for (_rank, key) in moves], list(moves.values()),
        [rank for (rank, _key) in moves], len(kept), sum(rank == 0 for rank, _key in moves),
    ]  # fmt: skip
    sql = then = None
    booked = len(args) + 1
    if insert is not None:
        args.append(len(insert.rows))
        sql, more = _insert_sql(insert, len(args) + 1)
        args += more
        if insert.then is not None:
            then, more = _insert_sql(insert.then, len(args) + 1)
            args += more
    return _write_entries_pg(sql, booked, then, unread), args, moves
