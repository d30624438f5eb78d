"""The ledger's rules held by the database itself (migration 20261123_02): each write below
goes around the service (plain statements, not `post_entry`) and is refused, on SQLite and
on PostgreSQL, with nothing of it left behind."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from cardservice.db.sql import INTEGRITY_ERRORS, Tx
from cardservice.ledger import InsufficientFunds, SystemBook, book_leg, card_leg, post_entry
from cardservice.models.base import utcnow
from tests.factories import make_card, make_user

_POSTING = (
    "INSERT INTO postings (entry_id, account_uuid, card_uuid, system_book, currency, amount)"
    " VALUES ($1, $2, $3, $4, $5, $6)"
)
_ENTRY = (
    "INSERT INTO journal_entries (id, kind, reference, created_at) VALUES ($1, 'test', NULL, $2)"
)
_NEXT = "SELECT coalesce(max(id), 0) + 1000 FROM journal_entries"


@pytest.fixture
async def holders(app: FastAPI, client: httpx.AsyncClient) -> tuple[uuid.UUID, uuid.UUID]:
    """A USD account with 1000.00 and a USD card with 100.00 on it."""
    user = await make_user(app)
    account, card = await make_card(app, client, user, funds="1000", start_balance="100")
    return account, uuid.UUID(card)


async def _counts(app: FastAPI) -> tuple[Any, ...]:
    row = await app.state.db.reader.row(
        "SELECT (SELECT count(*) FROM postings), (SELECT count(*) FROM journal_entries),"
        " (SELECT coalesce(sum(amount), 0) FROM postings), (SELECT count(*) FROM transactions)"
    )
    return tuple(row)


async def _refused(app: FastAPI, work: Callable[[Tx], Awaitable[None]]) -> None:
    before = await _counts(app)
    with pytest.raises(INTEGRITY_ERRORS):
        await app.state.db.transact(work)
    assert await _counts(app) == before


async def test_an_entry_whose_postings_do_not_sum_to_zero_is_refused(
    app: FastAPI, holders: tuple[uuid.UUID, uuid.UUID]
) -> None:
    _account, card = holders

    async def unbalanced(tx: Tx) -> None:
        entry = await tx.value(_NEXT)
        await tx.execute(_POSTING, entry, None, card, None, "USD", 100)
        await tx.execute(_POSTING, entry, None, None, "fees", "USD", -50)
        await tx.execute(_ENTRY, entry, utcnow())

    await _refused(app, unbalanced)


async def test_an_entry_without_postings_is_refused(app: FastAPI) -> None:
    async def empty(tx: Tx) -> None:
        await tx.execute(_ENTRY, await tx.value(_NEXT), utcnow())

    await _refused(app, empty)


async def test_a_posting_added_to_a_written_entry_is_refused(
    app: FastAPI, holders: tuple[uuid.UUID, uuid.UUID]
) -> None:
    _account, card = holders
    entry = await app.state.db.reader.value("SELECT max(entry_id) FROM postings")

    async def appended(tx: Tx) -> None:
        await tx.execute(_POSTING, entry, None, card, None, "USD", 5)
        await tx.execute(_POSTING, entry, None, None, "fees", "USD", -5)

    await _refused(app, appended)


async def test_a_posting_whose_entry_never_comes_fails_at_commit(
    app: FastAPI, holders: tuple[uuid.UUID, uuid.UUID]
) -> None:
    _account, card = holders

    async def orphans(tx: Tx) -> None:
        entry = await tx.value(_NEXT)
        await tx.execute(_POSTING, entry, None, card, None, "USD", 5)
        await tx.execute(_POSTING, entry, None, None, "fees", "USD", -5)

    await _refused(app, orphans)


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE postings SET amount = amount + 1",
        "DELETE FROM postings",
        "UPDATE journal_entries SET kind = 'edited'",
        "DELETE FROM journal_entries",
    ],
)
async def test_postings_and_entries_are_append_only(
    app: FastAPI, holders: tuple[uuid.UUID, uuid.UUID], statement: str
) -> None:
    async def edit(tx: Tx) -> None:
        await tx.execute(statement)

    with pytest.raises((*INTEGRITY_ERRORS,)):
        await app.state.db.transact(edit)


@pytest.mark.parametrize("holder", ["account", "card"])
async def test_a_posting_in_another_currency_than_its_holder_is_refused(
    app: FastAPI, holders: tuple[uuid.UUID, uuid.UUID], holder: str
) -> None:
    account, card = holders
    owner = (account, None) if holder == "account" else (None, card)

    async def in_euros(tx: Tx) -> None:
        entry = await tx.value(_NEXT)
        await tx.execute(_POSTING, entry, *owner, None, "EUR", 100)
        await tx.execute(_POSTING, entry, None, None, "funding", "EUR", -100)
        await tx.execute(_ENTRY, entry, utcnow())

    await _refused(app, in_euros)


@pytest.mark.parametrize(
    "change",
    [
        "amount = -1",
        "fee = -1",
        "refunded_amount = amount + 1",
        "refunded_amount = -1",
        "merchant_captured_amount = -1",
        "type = 'gift'",
        "status = 'lost'",
        "direction = 'sideways'",
    ],
)
async def test_a_transaction_outside_its_rules_is_refused(
    app: FastAPI, holders: tuple[uuid.UUID, uuid.UUID], change: str
) -> None:
    async def broken(tx: Tx) -> None:
        await tx.execute(f"UPDATE transactions SET {change}")

    await _refused(app, broken)


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE accounts SET status = 'gone'",
        "UPDATE accounts SET balance = -1",
        "UPDATE cards SET balance = -1",
        "UPDATE cards SET status = 'lost'",
    ],
)
async def test_an_account_or_card_outside_its_rules_is_refused(
    app: FastAPI, holders: tuple[uuid.UUID, uuid.UUID], statement: str
) -> None:
    async def broken(tx: Tx) -> None:
        await tx.execute(statement)

    await _refused(app, broken)


async def test_a_posting_for_a_holder_that_does_not_exist_is_refused(
    app: FastAPI, holders: tuple[uuid.UUID, uuid.UUID]
) -> None:
    async def nobody(tx: Tx) -> None:
        entry = await tx.value(_NEXT)
        await tx.execute(_POSTING, entry, None, uuid.uuid4(), None, "USD", 100)
        await tx.execute(_POSTING, entry, None, None, "funding", "USD", -100)
        await tx.execute(_ENTRY, entry, utcnow())

    await _refused(app, nobody)


# One statement, as the service writes an entry on PostgreSQL (`ledger.entries`): the
# postings, then the entry that reads them; the checks run once the statement is done.
_ONE_STATEMENT = """
WITH p AS (INSERT INTO postings (entry_id, account_uuid, card_uuid, system_book, currency, amount)
           VALUES ($1, NULL, $2, NULL, 'USD', 100), ($1, NULL, NULL, 'fees', 'USD', $3)
           RETURNING 1)
INSERT INTO journal_entries (id, kind, reference, created_at)
SELECT $1, 'test', NULL, $4 WHERE (SELECT count(*) FROM p) = 2"""


async def test_an_unbalanced_entry_in_one_statement_is_refused(
    app: FastAPI, holders: tuple[uuid.UUID, uuid.UUID]
) -> None:
    if app.state.db.is_sqlite:
        pytest.skip("SQLite's statements cannot insert into two tables")
    _account, card = holders

    async def unbalanced(tx: Tx) -> None:
        await tx.execute(_ONE_STATEMENT, await tx.value(_NEXT), card, -99, utcnow())

    await _refused(app, unbalanced)


async def test_a_posting_after_its_entry_in_the_same_unit_is_refused(
    app: FastAPI, holders: tuple[uuid.UUID, uuid.UUID]
) -> None:
    _account, card = holders

    async def appended(tx: Tx) -> None:
        entry = await tx.value(_NEXT)
        if tx.dialect == "postgresql":  # an entry's postings are its statement's there
            await tx.execute(_ONE_STATEMENT, entry, card, -100, utcnow())
        else:
            await tx.execute(_POSTING, entry, None, card, None, "USD", 100)
            await tx.execute(_POSTING, entry, None, None, "fees", "USD", -100)
            await tx.execute(_ENTRY, entry, utcnow())
        await tx.execute(_POSTING, entry, None, card, None, "USD", 1)

    await _refused(app, appended)


_TAGGED_COPY = (
    "INSERT INTO transactions (uuid, user_uuid, account_uuid, card_uuid, type, status,"
    " direction, amount, currency, fee, refunded_amount, flagged, created_at, updated_at,"
    " tag_slug) SELECT $1, user_uuid, account_uuid, card_uuid, type, status, direction, amount,"
    " currency, fee, refunded_amount, flagged, created_at, updated_at, 'no-such-tag'"
    " FROM transactions LIMIT 1"
)


@pytest.mark.parametrize("write", ["insert", "update"])
async def test_a_transaction_with_a_tag_that_does_not_exist_is_refused(
    app: FastAPI, holders: tuple[uuid.UUID, uuid.UUID], write: str
) -> None:
    async def unknown(tx: Tx) -> None:
        if write == "insert":
            await tx.execute(_TAGGED_COPY, uuid.uuid4())
        else:
            await tx.execute("UPDATE transactions SET tag_slug = 'no-such-tag'")

    await _refused(app, unknown)


async def test_a_tag_a_transaction_carries_cannot_be_deleted(
    app: FastAPI, holders: tuple[uuid.UUID, uuid.UUID]
) -> None:
    slug = await app.state.db.reader.value("SELECT slug FROM transaction_tags LIMIT 1")

    async def tag_and_delete(tx: Tx) -> None:
        await tx.execute("UPDATE transactions SET tag_slug = $1", slug)
        await tx.execute("DELETE FROM transaction_tags WHERE slug = $1", slug)

    await _refused(app, tag_and_delete)


async def test_a_tag_a_transaction_carries_is_rewritten_but_never_renamed(
    app: FastAPI, holders: tuple[uuid.UUID, uuid.UUID]
) -> None:
    slug = await app.state.db.reader.value("SELECT slug FROM transaction_tags LIMIT 1")
    tagged = "UPDATE transactions SET tag_slug = $1"
    await app.state.db.transact(lambda tx: tx.execute(tagged, slug))

    async def rewritten(tx: Tx) -> None:  # as the catalogue's sync writes a tag: every column
        same = "UPDATE transaction_tags SET slug = slug, name = name WHERE slug = $1"
        await tx.execute(same, slug)

    await app.state.db.transact(rewritten)

    async def renamed(tx: Tx) -> None:
        await tx.execute("UPDATE transaction_tags SET slug = 'renamed' WHERE slug = $1", slug)

    with pytest.raises(INTEGRITY_ERRORS):
        await app.state.db.transact(renamed)


# a copy of the holder's transaction as a `$3` (status `$4`), `{column}` a uuid that names
# nothing
_COPY_NAMING = (
    "INSERT INTO transactions (uuid, user_uuid, account_uuid, card_uuid, type, status,"
    " direction, amount, currency, fee, refunded_amount, flagged, created_at, updated_at)"
    " SELECT $1, {user_uuid}, {account_uuid}, {card_uuid}, $3, $4, 'debit', amount,"
    " currency, fee, 0, flagged, created_at, updated_at FROM transactions"
    " WHERE card_uuid IS NOT NULL LIMIT 1"
)
_HOLDERS = ("user_uuid", "account_uuid", "card_uuid")


# a purchase the card's spend days count, and a top-up they do not (PostgreSQL checks their
# card each its own way: migration 20261128_04)
@pytest.mark.parametrize("kind", [("card_purchase", "pending"), ("card_topup", "completed")])
@pytest.mark.parametrize("write", ["insert", "update"])
@pytest.mark.parametrize("column", _HOLDERS)
async def test_a_transaction_for_a_holder_that_does_not_exist_is_refused(
    app: FastAPI,
    holders: tuple[uuid.UUID, uuid.UUID],
    column: str,
    write: str,
    kind: tuple[str, str],
) -> None:
    async def nobody(tx: Tx) -> None:
        if write == "insert":
            named = {name: "$2" if name == column else name for name in _HOLDERS}
            sql = _COPY_NAMING.format(**named)
            await tx.execute(sql, uuid.uuid4(), uuid.uuid4(), *kind)
        else:
            await tx.execute(f"UPDATE transactions SET {column} = $1", uuid.uuid4())

    await _refused(app, nobody)


@pytest.mark.parametrize("write", ["DELETE FROM cards", "UPDATE cards SET uuid = $2"])
async def test_a_card_a_transaction_names_is_never_deleted_or_renumbered(
    app: FastAPI, holders: tuple[uuid.UUID, uuid.UUID], write: str
) -> None:
    _account, card = holders
    named = "SELECT count(*) FROM transactions WHERE card_uuid = $1"
    assert await app.state.db.reader.value(named, card) > 0

    async def gone(tx: Tx) -> None:
        # its spend days name it too (a key of their own): only the transactions are left
        await tx.execute("DELETE FROM card_spend WHERE card_uuid = $1", card)
        args = (card,) if write.startswith("DELETE") else (card, uuid.uuid4())
        await tx.execute(f"{write} WHERE uuid = $1", *args)

    await _refused(app, gone)
    assert await app.state.db.reader.value("SELECT count(*) FROM cards WHERE uuid = $1", card)


async def _card_balance(app: FastAPI, card: uuid.UUID) -> int:
    return int(await app.state.db.reader.value("SELECT balance FROM cards WHERE uuid = $1", card))


@pytest.mark.parametrize("entries", [1, 2])
async def test_an_entry_left_for_later_below_zero_is_refused(
    app: FastAPI, holders: tuple[uuid.UUID, uuid.UUID], entries: int
) -> None:
    """An entry `post_entry` leaves for the COMMIT (`held`: the balances the caller says it
    locked) is still refused by the database when the caller was wrong — alone (its own
    statement) or with another (one `post_entries` statement): the card holds 100.00, the
    caller claims 1,000,000.00 and moves 200.00. SQLite writes it at once and refuses it
    there. Nothing of the unit is left."""
    _account, card = holders
    before = await _card_balance(app, card)

    async def overdrawn(tx: Tx) -> None:
        for n in range(entries):
            amount = 20_000 if n == entries - 1 else 100
            legs = [card_leg(card, "USD", -amount), book_leg(SystemBook.FEES, "USD", amount)]
            await post_entry(tx, "test", legs, held={card: 100_000_000})

    counts = await _counts(app)
    with pytest.raises((InsufficientFunds, *INTEGRITY_ERRORS)):
        await app.state.db.transact(overdrawn)
    assert await _counts(app) == counts
    assert await _card_balance(app, card) == before


async def test_an_entry_left_for_later_is_seen_by_the_units_next_statement(
    app: FastAPI, holders: tuple[uuid.UUID, uuid.UUID]
) -> None:
    """A statement after an entry left for later sees it (it is written first), and the
    balances `post_entry` worked out are the database's."""
    _account, card = holders
    before = await _card_balance(app, card)

    async def seen(tx: Tx) -> tuple[int, int]:
        legs = [card_leg(card, "USD", -250), book_leg(SystemBook.FEES, "USD", 250)]
        posted = await post_entry(tx, "test", legs, held={card: before})
        read = await tx.value("SELECT balance FROM cards WHERE uuid = $1", card)
        return posted.balances[card], int(read)

    worked_out, read = await app.state.db.transact(seen)
    assert worked_out == read == before - 250 == await _card_balance(app, card)
