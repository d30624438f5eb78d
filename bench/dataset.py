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

from sqlalchemy import func, insert, select, text, update

from cardservice.accounts.service import create_account
from cardservice.auth.credentials import issue_token
from cardservice.cards.purchase import buy_cards
from cardservice.cards.schemas import BuyCardsRequest
from cardservice.db import Database
from cardservice.models import Bin, Card, JournalEntry, Posting, Transaction
from cardservice.models.base import utcnow
from cardservice.security import CardCipher
from cardservice.sql import session_tx
from cardservice.transactions.deposits import deposit
from cardservice.users.service import create_user

BATCH = 5_000
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


async def _heavy_user(
    db: Database, cipher: CardCipher, cards: int, email: str = "heavy@bench.example"
) -> DataSet:
    async with db.write() as session:
        user = await create_user(session, email, "Heavy User")
        account = await create_account(session, user.uuid, "Main", "USD")
        await deposit(session, user.uuid, account.uuid, 10**13)
        bin_uuid = str(
            await session.scalar(
                select(Bin.uuid)
                .where(Bin.currency == "USD", Bin.status == "available")
                .order_by(Bin.bin)
            )
        )
        for start in range(0, cards, 100):
            await buy_cards(
                await session_tx(session),
                cipher,
                user.uuid,
                BuyCardsRequest.model_validate(
                    {
                        "account_uuid": str(account.uuid),
                        "bin_uuid": bin_uuid,
                        "cards_count": min(100, cards - start),
                        "start_balance": Decimal(1_000_000),
                    }
                ),
            )
        _row, token = await issue_token(await session_tx(session), user.uuid, "bench", None)
        card_uuids = [
            str(c)
            for c in await session.scalars(select(Card.uuid).where(Card.user_uuid == user.uuid))
        ]
    return DataSet(token, str(account.uuid), bin_uuid, card_uuids, [])


async def _history(db: Database, data: DataSet, count: int, rng: random.Random) -> None:
    """`count` settled purchases spread over a year, in batches, each with its entry."""
    now = utcnow()
    async with db.read() as session:
        user_uuid = await session.scalar(
            select(Card.user_uuid).where(Card.uuid == uuid.UUID(data.cards[0]))
        )
    spent: dict[str, int] = {}
    for start in range(0, count, BATCH):
        rows, entries, postings = [], [], []
        async with db.write() as session:
            next_id = (
                int(await session.scalar(select(func.coalesce(func.max(JournalEntry.id), 0))) or 0)
                + 1
            )
            for offset in range(min(BATCH, count - start)):
                card = rng.choice(data.cards)
                amount = rng.randint(100, 20_000)
                txn = uuid.uuid4()
                at = now - timedelta(seconds=rng.randint(0, 365 * 86400))
                rows.append(
                    {
                        "uuid": txn,
                        "user_uuid": user_uuid,
                        "account_uuid": uuid.UUID(data.account),
                        "card_uuid": uuid.UUID(card),
                        "type": "card_purchase",
                        "status": "completed",
                        "direction": "debit",
                        "amount": amount,
                        "currency": "USD",
                        "fee": FEE,
                        "refunded_amount": 0,
                        "merchant_name": "Bench Shop",
                        "flagged": False,
                        "created_at": at,
                        "updated_at": at,
                    }
                )
                entry_id = next_id + offset
                entries.append(
                    {
                        "id": entry_id,
                        "kind": "card_purchase_pending",
                        "reference": txn,
                        "created_at": at,
                    }
                )
                postings += [
                    {
                        "entry_id": entry_id,
                        "card_uuid": uuid.UUID(card),
                        "currency": "USD",
                        "amount": -(amount + FEE),
                    },
                    {
                        "entry_id": entry_id,
                        "system_book": "merchants",
                        "currency": "USD",
                        "amount": amount,
                    },
                    {"entry_id": entry_id, "system_book": "fees", "currency": "USD", "amount": FEE},
                ]
                spent[card] = spent.get(card, 0) + amount + FEE
            await session.execute(insert(Transaction), rows)
            await session.execute(insert(JournalEntry), entries)
            await session.execute(insert(Posting), postings)
            if not db.is_sqlite:  # ids were given explicitly: move the sequence past them
                await session.execute(
                    text(
                        "SELECT setval(pg_get_serial_sequence('journal_entries', 'id'), "
                        "(SELECT MAX(id) FROM journal_entries))"
                    )
                )
        if len(data.transactions) < 1000:
            data.transactions += [str(r["uuid"]) for r in rows[: 1000 - len(data.transactions)]]
    async with db.write() as session:
        for card, amount in spent.items():
            await session.execute(
                update(Card)
                .where(Card.uuid == uuid.UUID(card))
                .values(balance=Card.balance - amount)
            )


async def _ordinary_users(
    db: Database, cipher: CardCipher, count: int, bin_uuid: str
) -> list[Holder]:
    holders = []
    async with db.write() as session:
        for index in range(count):
            user = await create_user(session, f"user{index}@bench.example", f"User {index}")
            account = await create_account(session, user.uuid, "Main", "USD")
            # Enough for every write a run sends: a bench user must never run out of money,
            # or buys become 422s and authorizations declines, measuring the refusal path.
            await deposit(session, user.uuid, account.uuid, 10**10)
            await buy_cards(
                await session_tx(session),
                cipher,
                user.uuid,
                BuyCardsRequest.model_validate(
                    {
                        "account_uuid": str(account.uuid),
                        "bin_uuid": bin_uuid,
                        "start_balance": Decimal(1_000_000),
                    }
                ),
            )
            _row, token = await issue_token(await session_tx(session), user.uuid, "bench", None)
            card = await session.scalar(select(Card.uuid).where(Card.user_uuid == user.uuid))
            holders.append(Holder(token, str(account.uuid), str(card)))
    return holders


async def check_ledger(db: Database) -> None:
    """The data set is a true ledger: postings sum to zero; balances equal their postings."""
    async with db.read() as session:
        assert await session.scalar(select(func.coalesce(func.sum(Posting.amount), 0))) == 0
        drift = await session.scalar(
            text(
                "SELECT COUNT(*) FROM cards c WHERE c.balance <> "
                "(SELECT COALESCE(SUM(p.amount), 0) FROM postings p WHERE p.card_uuid = c.uuid)"
            )
        )
        assert drift == 0, f"{drift} cards differ from their postings"


async def build(
    db: Database, cipher: CardCipher, *, cards: int, transactions: int, users: int
) -> DataSet:
    rng = random.Random(7)
    data = await _heavy_user(db, cipher, cards)
    await _history(db, data, transactions, rng)
    if transactions > REFERENCE_TRANSACTIONS:  # page 1 at this size vs. at the reference size
        data.reference = await _heavy_user(db, cipher, 10, "reference@bench.example")
        await _history(db, data.reference, REFERENCE_TRANSACTIONS, rng)
    data.holders = await _ordinary_users(db, cipher, users, data.bin_uuid)
    await check_ledger(db)
    return data
