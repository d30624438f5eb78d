"""Test data built through the services, never by writing rows directly; and `around(app)`,
a client of the test's database beside the service, to look at (or set up) rows as an
outsider would."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

import httpx
from fastapi import FastAPI
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine
from sqlalchemy.pool import NullPool

from cardservice.accounts.service import create_account
from cardservice.auth.credentials import issue_mfa_code, issue_token
from cardservice.db.sql import Tx, text_uuid
from cardservice.http.router import dumps
from cardservice.ledger.money import to_minor
from cardservice.models import Account, Bin, Card, Posting, Transaction
from cardservice.transactions.deposits import deposit
from cardservice.users.service import create_user

ISSUED_SECRETS: list[str] = []  # every token and code the tests issue, for the log scan


@asynccontextmanager
async def around(app: FastAPI) -> AsyncIterator[AsyncSession]:
    """An SQLAlchemy session on the app's database, outside the service (committed at the
    end): for assertions, and for setting up states no endpoint can make (an expired card)."""
    engine = create_async_engine(app.state.settings.resolved_database_url, poolclass=NullPool)
    try:
        async with AsyncSession(engine, expire_on_commit=False) as session, session.begin():
            yield session
    finally:
        await engine.dispose()


@dataclass
class Caller:
    uuid: uuid.UUID
    email: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


async def make_user(
    app: FastAPI,
    *,
    team: str | None = None,
    role: str | None = None,
    expires_in: timedelta | None = None,
) -> Caller:
    email = f"user-{uuid.uuid4().hex[:10]}@example.com"

    async def unit(tx: Tx) -> tuple[uuid.UUID, str]:
        user = await create_user(tx, email, "Test User", team, role)
        _row, token = await issue_token(tx, user, "test", expires_in)
        return user, token

    user, token = await app.state.db.transact(unit)
    ISSUED_SECRETS.append(token)
    return Caller(user, email, token)


async def make_mfa_code(app: FastAPI, user: Caller, ttl: timedelta = timedelta(minutes=10)) -> str:
    async def unit(tx: Tx) -> str:
        code, _expires = await issue_mfa_code(tx, user.uuid, ttl)
        return code

    code = await app.state.db.transact(unit)
    ISSUED_SECRETS.append(code)
    return code


async def make_account(
    app: FastAPI,
    user: Caller,
    *,
    currency: str = "USD",
    funds: str = "0",
    name: str = "Main",
    type_: str = "main",
) -> uuid.UUID:
    async def unit(tx: Tx) -> uuid.UUID:
        account = await create_account(tx, user.uuid, name, currency, type_)
        if Decimal(funds) > 0:
            await deposit(tx, user.uuid, account, to_minor(Decimal(funds)))
        return account

    account: uuid.UUID = await app.state.db.transact(unit)
    return account


async def bin_uuid(app: FastAPI, *, currency: str = "USD", status: str = "available") -> str:
    async with around(app) as session:
        found = await session.scalar(
            select(Bin.uuid).where(Bin.currency == currency, Bin.status == status).order_by(Bin.bin)
        )
    assert found is not None
    return str(found)


async def balances(app: FastAPI, account_uuid: uuid.UUID) -> tuple[int, list[int]]:
    """The account's balance and its cards' balances, in minor units."""
    async with around(app) as session:
        account = await session.scalar(select(Account.balance).where(Account.uuid == account_uuid))
        cards = await session.scalars(
            select(Card.balance).where(Card.account_uuid == account_uuid).order_by(Card.sort_order)
        )
        return int(account or 0), list(cards)


async def assert_ledger_consistent(app: FastAPI) -> None:
    """Postings sum to zero per currency; every balance equals its postings and is ≥ 0."""
    async with around(app) as session:
        per_currency = (
            await session.execute(
                select(Posting.currency, func.sum(Posting.amount)).group_by(Posting.currency)
            )
        ).all()
        assert all(total == 0 for _currency, total in per_currency), per_currency
        unbalanced = (
            await session.execute(
                select(Posting.entry_id, Posting.currency)
                .group_by(Posting.entry_id, Posting.currency)
                .having(func.sum(Posting.amount) != 0)
            )
        ).all()
        assert unbalanced == []
        for model, column in ((Account, Posting.account_uuid), (Card, Posting.card_uuid)):
            posted = dict(
                (
                    await session.execute(
                        select(column, func.sum(Posting.amount))
                        .where(column.is_not(None))
                        .group_by(column)
                    )
                ).all()
            )
            for key, balance in (await session.execute(select(model.uuid, model.balance))).all():
                assert balance >= 0
                assert balance == posted.get(key, 0), (
                    model.__name__,
                    key,
                    balance,
                    posted.get(key),
                )
        # the report's totals: the count the database keeps equals the rows, for every user
        counted = (
            await session.execute(text("SELECT user_uuid, transactions FROM transaction_counts"))
        ).all()
        rows = (
            await session.execute(
                select(Transaction.user_uuid, func.count()).group_by(Transaction.user_uuid)
            )
        ).all()
        assert {text_uuid(u): n for u, n in counted if n} == {str(u): n for u, n in rows}
        # the summary's spend: the days the database keeps equal the purchases they sum
        kept = (
            await session.execute(
                text("SELECT user_uuid, currency, spent_on, amount FROM daily_spend")
            )
        ).all()
        spent = (
            await session.execute(
                select(Transaction.user_uuid, Transaction.currency, Transaction.created_at)
                .add_columns(Transaction.amount)
                .where(
                    Transaction.type == "card_purchase",
                    Transaction.status.in_(("pending", "completed")),
                )
            )
        ).all()
        by_day: dict[tuple[str, str, str], int] = {}
        for user_uuid, currency, created_at, amount in spent:
            day = (str(user_uuid), currency, created_at.date().isoformat())
            by_day[day] = by_day.get(day, 0) + amount
        assert {(text_uuid(u), c, str(d)): a for u, c, d, a in kept if a} == by_day
        # the spending controls' windows: each card's days equal what its purchases count
        card_days = (
            await session.execute(text("SELECT card_uuid, spent_on, amount FROM card_spend"))
        ).all()
        counted_purchases = (
            await session.execute(
                select(Transaction.card_uuid, Transaction.created_at)
                .add_columns(Transaction.amount - Transaction.refunded_amount)
                .where(
                    Transaction.type == "card_purchase",
                    Transaction.status.in_(("pending", "completed", "refunded")),
                )
            )
        ).all()
        by_card_day: dict[tuple[str, str], int] = {}
        for card_uuid, created_at, amount in counted_purchases:
            card_day = (str(card_uuid), created_at.date().isoformat())
            by_card_day[card_day] = by_card_day.get(card_day, 0) + amount
        assert {(text_uuid(c), str(d)): a for c, d, a in card_days if a} == {
            k: a for k, a in by_card_day.items() if a
        }
        await _assert_holds_match(session)


async def _assert_holds_match(session: AsyncSession) -> None:
    """The `holds` book holds exactly what pending purchases still hold, per currency; no
    purchase captured more than its authorization plus 20 %, nor holds anything unless
    pending (released + captured = held) — except what a clearing file presented, which is
    never refused (API.md §18); a foreign-currency purchase's merchant amounts follow the
    same rules in the merchant's currency."""
    booked = dict(
        (
            await session.execute(
                select(Posting.currency, func.sum(Posting.amount))
                .where(Posting.system_book == "holds")
                .group_by(Posting.currency)
            )
        ).all()
    )
    purchases = (
        await session.execute(
            select(
                Transaction.status,
                Transaction.currency,
                Transaction.amount,
                Transaction.authorized_amount,
                Transaction.captured_amount,
                Transaction.merchant_currency,
                Transaction.merchant_amount,
                Transaction.merchant_captured_amount,
                Transaction.clearing,
            ).where(Transaction.type == "card_purchase", Transaction.status != "declined")
        )
    ).all()
    held: dict[str, int] = {}
    for status, currency, amount, authorized, captured, *merchant, cleared in purchases:
        assert cleared or captured * 100 <= authorized * 120, (amount, authorized, captured)
        _assert_merchant_amounts(status, *merchant)
        if status == "pending":
            assert amount > captured
            held[currency] = held.get(currency, 0) + amount - captured
        elif status == "reversed":
            assert captured == 0
        else:  # completed / refunded: what the card paid is what was captured
            assert amount == captured, (status, amount, captured)
    assert {c: a for c, a in booked.items() if a} == {c: a for c, a in held.items() if a}


def _assert_merchant_amounts(
    status: str, currency: str | None, amount: int | None, captured: int | None
) -> None:
    """A foreign purchase's `merchant_amount` / `merchant_captured_amount` are held +
    captured / captured, as `amount` / `captured_amount` are (none for a domestic one)."""
    if currency is None:
        assert (amount, captured) == (None, None), (amount, captured)
        return
    assert amount is not None and captured is not None and captured >= 0
    if status == "pending":
        assert amount > captured, (status, amount, captured)
    elif status == "reversed":
        assert captured == 0, (status, amount, captured)
    else:
        assert amount == captured, (status, amount, captured)


async def make_card(
    app: FastAPI,
    client: httpx.AsyncClient,
    user: Caller,
    *,
    funds: str = "1000",
    start_balance: str = "100",
    currency: str = "USD",
    **extra: object,
) -> tuple[uuid.UUID, str]:
    """A funded account with one card bought through the API; returns (account, card uuid)."""
    account = await make_account(app, user, currency=currency, funds=funds)
    response = await client.post(
        "/card/buy",
        content=dumps(
            {
                "account_uuid": str(account),
                "bin_uuid": await bin_uuid(app, currency=currency),
                "start_balance": Decimal(start_balance),
                **extra,
            }
        ),
        headers={**user.headers, "Content-Type": "application/json"},
    )
    assert response.status_code == 201, response.text
    return account, response.json()["data"]["cards"][0]["uuid"]


async def authorize(
    client: httpx.AsyncClient, user: Caller, card: str, amount: str, **extra: object
) -> httpx.Response:
    body = {
        "card_uuid": card,
        "amount": Decimal(amount),
        "currency": "USD",
        "merchant_name": "Netflix",
        **extra,
    }
    return await client.post(
        "/sandbox/authorizations",
        content=dumps(body),
        headers={**user.headers, "Content-Type": "application/json"},
    )
