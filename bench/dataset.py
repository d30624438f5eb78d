"""The benchmark data set, built through the service's own code, with a bulk path for history.

One heavy user (N cards, M settled purchases) and K ordinary users. Accounts, cards and the
first funds go through the services (`create_account`, `deposit`, `buy_cards`); the purchase
history is bulk-inserted as the engine would have written it — one transaction, one journal
entry and three postings each — and the card balances are then moved by exactly the sum of
those postings, so the ledger stays true (checked at the end).
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from typing import Any

from cardservice.accounts.service import create_account
from cardservice.auth.credentials import issue_token
from cardservice.cards.purchase import buy_cards
from cardservice.cards.schemas import BuyCardsRequest
from cardservice.db.database import Database
from cardservice.db.sql import Tx, insert_sql, row_args, text_uuid
from cardservice.ledger.sealer import seal_in_turn
from cardservice.models import Transaction
from cardservice.models.base import table_of, utcnow
from cardservice.observability.progress import Report, Stages
from cardservice.security import CardCipher
from cardservice.transactions.deposits import deposit
from cardservice.transactions.repository import transaction_row
from cardservice.users.service import create_user

BATCH = 5_000
ROWS_PER_INSERT = 1_000
MAX_PARAMETERS = 32_767  # asyncpg's limit of bound parameters per statement (SQLite's: 32,766)
TRANSACTION_COLUMNS = tuple(table_of(Transaction).columns.keys())  # transaction_row's keys
ENTRY_COLUMNS = ("id", "kind", "reference", "created_at")
POSTING_COLUMNS = ("entry_id", "account_uuid", "card_uuid", "system_book", "currency", "amount")
REFERENCE_TRANSACTIONS = 10_000
FEE = 10  # card_transaction fee of the default plan, minor units


@dataclass
class Holder:
    """A user the benchmark acts as: token, one account and one card of theirs."""

    token: str
    account: str
    card: str


@dataclass
class DataSet:
    token: str
    account: str
    bin_uuid: str
    cards: list[str]
    transactions: list[str]
    holders: list[Holder] = field(default_factory=list)  # the ordinary users
    reference: DataSet | None = None  # a user with a small history, beside the heavy one


async def _insert(tx: Tx, table: str, columns: tuple[str, ...], rows: list[dict[str, Any]]) -> None:
    per_insert = min(ROWS_PER_INSERT, (MAX_PARAMETERS - 1) // len(columns))
    for start in range(0, len(rows), per_insert):
        chunk = rows[start : start + per_insert]
        await tx.execute(insert_sql(table, columns, len(chunk)), *row_args(columns, chunk))


async def _insert_entries(
    tx: Tx, entries: list[dict[str, Any]], postings: list[dict[str, Any]]
) -> None:
    """The entries with their postings. On PostgreSQL a chunk of entries is one statement with
    its postings, as `ledger.entries` writes them (the database checks a posting's entry at
    the end of the posting's statement, and an entry's postings at the end of the entry's:
    docs/ledger.md); on SQLite the postings, then their entries (checked at COMMIT)."""
    if tx.dialect != "postgresql":
        await _insert(tx, "postings", POSTING_COLUMNS, postings)
        await _insert(tx, "journal_entries", ENTRY_COLUMNS, entries)
        return
    legs: dict[int, list[dict[str, Any]]] = {}
    for posting in postings:
        legs.setdefault(posting["entry_id"], []).append(posting)
    chunk: list[dict[str, Any]] = []
    parameters = 0
    for entry in [*entries, None]:
        width = (
            0
            if entry is None
            else len(ENTRY_COLUMNS) + len(POSTING_COLUMNS) * len(legs[entry["id"]])
        )
        if chunk and (
            entry is None
            or parameters + width > MAX_PARAMETERS - 1
            or len(chunk) >= ROWS_PER_INSERT
        ):
            moves = [leg for e in chunk for leg in legs[e["id"]]]
            sql = (
                f"WITH p AS ({insert_sql('postings', POSTING_COLUMNS, len(moves))} RETURNING 1) "
                + insert_sql(
                    "journal_entries",
                    ENTRY_COLUMNS,
                    len(chunk),
                    start=len(moves) * len(POSTING_COLUMNS) + 1,
                )
            )
            await tx.execute(
                sql, *row_args(POSTING_COLUMNS, moves), *row_args(ENTRY_COLUMNS, chunk)
            )
            chunk, parameters = [], 0
        if entry is not None:
            chunk.append(entry)
            parameters += width


async def _usd_bin(tx: Tx) -> str:
    found = await tx.value(
        "SELECT uuid FROM bins WHERE currency = 'USD' AND status = 'available' ORDER BY bin"
    )
    return str(text_uuid(found))


async def _cards_of(tx: Tx, user: uuid.UUID) -> list[str]:
    rows = await tx.rows("SELECT uuid FROM cards WHERE user_uuid = $1 ORDER BY sort_order", user)
    return [str(text_uuid(row["uuid"])) for row in rows]


def _buy(account: uuid.UUID, bin_uuid: str, count: int) -> BuyCardsRequest:
    return BuyCardsRequest.model_validate(
        {
            "account_uuid": str(account),
            "bin_uuid": bin_uuid,
            "cards_count": count,
            "start_balance": Decimal(1_000_000),
        }
    )


async def _heavy_user(
    db: Database, cipher: CardCipher, cards: int, email: str = "heavy@bench.example"
) -> DataSet:
    async def unit(tx: Tx) -> DataSet:
        user = await create_user(tx, email, "Heavy User")
        account = await create_account(tx, user, "Main", "USD")
        await deposit(tx, user, account, 10**13)
        bin_uuid = await _usd_bin(tx)
        for start in range(0, cards, 100):
            await buy_cards(tx, cipher, user, _buy(account, bin_uuid, min(100, cards - start)))
        _row, token = await issue_token(tx, user, "bench", None)
        return DataSet(token, str(account), bin_uuid, await _cards_of(tx, user), [])

    return await db.transact(unit)


def _purchase(
    user: uuid.UUID, data: DataSet, card: str, amount: int, at: Any, entry_id: int
) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """One settled purchase as the engine writes it: its row, its entry and three postings."""
    txn = uuid.uuid4()
    row = transaction_row(
        uuid=txn,
        user_uuid=user,
        account_uuid=uuid.UUID(data.account),
        card_uuid=uuid.UUID(card),
        type="card_purchase",
        status="completed",
        direction="debit",
        amount=amount,
        authorized_amount=amount,
        captured_amount=amount,
        currency="USD",
        fee=FEE,
        merchant_name="Bench Shop",
        decision="rules",
        created_at=at,
        updated_at=at,
    )
    entry = {"id": entry_id, "kind": "card_purchase_pending", "reference": txn, "created_at": at}
    legs = [
        (None, uuid.UUID(card), None, -(amount + FEE)),
        (None, None, "merchants", amount),
        (None, None, "fees", FEE),
    ]
    postings = [
        dict(zip(POSTING_COLUMNS, (entry_id, a, c, b, "USD", n), strict=True))
        for a, c, b, n in legs
    ]
    return row, entry, postings


async def _history(
    db: Database,
    data: DataSet,
    count: int,
    rng: random.Random,
    report: Report,
    stage: str,
    span: timedelta = timedelta(days=365),
) -> None:
    """`count` settled purchases spread over the `span` before now (a year), in batches,
    each with its entry; the cards' balances moved by exactly their postings, written as the
    ledger's rules require (`_insert_entries`)."""
    seconds = max(1, int(span.total_seconds()))
    now = utcnow()
    user = uuid.UUID(
        str(
            text_uuid(
                await db.reader.value(
                    "SELECT user_uuid FROM cards WHERE uuid = $1", uuid.UUID(data.cards[0])
                )
            )
        )
    )
    for start in range(0, count, BATCH):
        size = min(BATCH, count - start)

        async def batch(tx: Tx, size: int = size) -> list[dict[str, Any]]:
            next_id = int(await tx.value("SELECT coalesce(max(id), 0) + 1 FROM journal_entries"))
            rows, entries, postings = [], [], []
            spent: dict[str, int] = {}
            for offset in range(size):
                card, amount = rng.choice(data.cards), rng.randint(100, 20_000)
                at = now - timedelta(seconds=rng.randint(0, seconds))
                row, entry, legs = _purchase(user, data, card, amount, at, next_id + offset)
                rows.append(row)
                entries.append(entry)
                postings += legs
                spent[card] = spent.get(card, 0) + amount + FEE
            await _insert(tx, "transactions", TRANSACTION_COLUMNS, rows)
            await _insert_entries(tx, entries, postings)
            await seal_in_turn(tx)  # sealed in the load's unit: the books read day totals
            if tx.dialect == "postgresql":  # ids were given explicitly: move the sequence
                await tx.execute(
                    "SELECT setval(pg_get_serial_sequence('journal_entries', 'id'),"
                    " (SELECT max(id) FROM journal_entries))"
                )
            for card, amount in spent.items():
                await tx.execute(
                    "UPDATE cards SET balance = balance - $2 WHERE uuid = $1",
                    uuid.UUID(card),
                    amount,
                )
            return rows

        rows = await db.transact(batch)
        report(stage, start + size, count)
        if len(data.transactions) < 1000:
            data.transactions += [str(r["uuid"]) for r in rows[: 1000 - len(data.transactions)]]


async def _ordinary_users(
    db: Database, cipher: CardCipher, count: int, bin_uuid: str
) -> list[Holder]:
    async def unit(tx: Tx) -> list[Holder]:
        holders = []
        for index in range(count):
            user = await create_user(tx, f"user{index}@bench.example", f"User {index}")
            account = await create_account(tx, user, "Main", "USD")
            # Enough for every write a run sends: a bench user must never run out of money,
            # or buys become 422s and authorizations declines, measuring the refusal path.
            await deposit(tx, user, account, 10**10)
            await buy_cards(tx, cipher, user, _buy(account, bin_uuid, 1))
            _row, token = await issue_token(tx, user, "bench", None)
            holders.append(Holder(token, str(account), (await _cards_of(tx, user))[0]))
        return holders

    return await db.transact(unit)


async def check_ledger(db: Database) -> None:
    """The data set is a true ledger: postings sum to zero; balances equal their postings."""
    assert await db.reader.value("SELECT coalesce(sum(amount), 0) FROM postings") == 0
    drift = await db.reader.value(
        "SELECT count(*) FROM cards c WHERE c.balance <>"
        " (SELECT coalesce(sum(p.amount), 0) FROM postings p WHERE p.card_uuid = c.uuid)"
    )
    assert drift == 0, f"{drift} cards differ from their postings"


async def build(
    db: Database, cipher: CardCipher, *, cards: int, transactions: int, users: int
) -> DataSet:
    rng = random.Random(7)
    data = await _heavy_user(db, cipher, cards)
    with Stages() as bars:  # drawn on a terminal only
        await _history(db, data, transactions, rng, bars.report, "transactions")
        if transactions > REFERENCE_TRANSACTIONS:  # page 1 at this size vs. the reference size
            data.reference = await _heavy_user(db, cipher, 10, "reference@bench.example")
            reference = REFERENCE_TRANSACTIONS
            await _history(db, data.reference, reference, rng, bars.report, "reference set")
    if not db.is_sqlite:  # what autovacuum does after a bulk load (it is off on the test
        # machines): without statistics every unit's read of its pending events was planned
        # for ~25,000 rows (hash joins, parallel workers over the million events) in the
        # users' units below and in bench.run's numbering of the events after them
        await db.reader.value("ANALYZE")
    data.holders = await _ordinary_users(db, cipher, users, data.bin_uuid)
    await check_ledger(db)
    return data
