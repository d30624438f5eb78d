"""Test data built through the services, and reads of what they wrote through the service's
own reader (`app.state.db.reader`). A state no service can make (a fee override) is written
in the service's own unit of work (`app.state.db.transact`)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from types import SimpleNamespace

import httpx
from fastapi import FastAPI

from cardservice.accounts.service import create_account
from cardservice.auth.credentials import issue_mfa_code, issue_token
from cardservice.db.sql import Reader, Tx, as_datetime, as_uuid, flag, text_uuid
from cardservice.http.router import dumps
from cardservice.ledger.minor_units import to_minor
from cardservice.models.base import utcnow
from cardservice.transactions.deposits import deposit
from cardservice.users.service import create_user

ISSUED_SECRETS: list[str] = []  # every token and code the tests issue, for the log scan


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


async def set_fee_override(app: FastAPI, user: Caller, slug: str, kind: str, value: int) -> None:
    """The user's own price for the fee `slug`, stored as the fee plans store theirs (`kind`
    `fixed` or `percent`). Written in a unit of work: no service or command sets one."""
    await app.state.db.transact(
        lambda tx: tx.execute(
            "INSERT INTO user_fee_overrides (user_uuid, slug, kind, value, created_at)"
            " VALUES ($1, $2, $3, $4, $5)",
            user.uuid,
            slug,
            kind,
            value,
            utcnow(),
        )
    )


_UUIDS = ("uuid", "user_uuid", "account_uuid", "card_uuid", "parent_uuid")
_FLAGS = ("flagged", "stand_in")


async def stored_transactions(app: FastAPI, type_: str) -> list[SimpleNamespace]:
    """The transactions of one type as the database keeps them, oldest first: every column
    by name (amounts in minor units), uuids as `uuid.UUID` and flags as bools on both
    databases."""
    rows = await app.state.db.reader.rows(
        "SELECT * FROM transactions WHERE type = $1 ORDER BY created_at, uuid", type_
    )
    found = []
    for row in rows:
        columns = {name: row[name] for name in row.keys()}  # noqa: SIM118 - a Row, not a dict
        columns.update({name: as_uuid(columns[name]) for name in _UUIDS})
        columns.update({name: flag(columns[name]) for name in _FLAGS})
        found.append(SimpleNamespace(**columns))
    return found


async def bin_uuid(app: FastAPI, *, currency: str = "USD", status: str = "available") -> str:
    found = await app.state.db.reader.value(
        "SELECT uuid FROM bins WHERE currency = $1 AND status = $2 ORDER BY bin", currency, status
    )
    assert found is not None
    return str(text_uuid(found))


async def balances(app: FastAPI, account_uuid: uuid.UUID) -> tuple[int, list[int]]:
    """The account's balance and its cards' balances, in minor units."""
    reader = app.state.db.reader
    account = await reader.value("SELECT balance FROM accounts WHERE uuid = $1", account_uuid)
    cards = await reader.rows(
        "SELECT balance FROM cards WHERE account_uuid = $1 ORDER BY sort_order, created_at, uuid",
        account_uuid,
    )
    return int(account or 0), [int(card["balance"]) for card in cards]


async def assert_ledger_consistent(app: FastAPI) -> None:
    """Postings sum to zero per currency; every balance equals its postings and is ≥ 0."""
    reader = app.state.db.reader
    per_currency = await reader.rows("SELECT currency, sum(amount) FROM postings GROUP BY currency")
    assert all(total == 0 for _currency, total in per_currency), per_currency
    unbalanced = await reader.rows(
        "SELECT entry_id, currency FROM postings GROUP BY entry_id, currency"
        " HAVING sum(amount) != 0"
    )
    assert list(unbalanced) == []
    for table, column in (("accounts", "account_uuid"), ("cards", "card_uuid")):
        posted = {
            key: total
            for key, total in await reader.rows(
                f"SELECT {column}, sum(amount) FROM postings"
                f" WHERE {column} IS NOT NULL GROUP BY {column}"
            )
        }
        for key, balance in await reader.rows(f"SELECT uuid, balance FROM {table}"):
            assert balance >= 0
            assert balance == posted.get(key, 0), (table, key, balance, posted.get(key))
    # the report's totals: the count the database keeps equals the rows, for every user
    counted = await reader.rows("SELECT user_uuid, transactions FROM transaction_counts")
    rows = await reader.rows("SELECT user_uuid, count(*) FROM transactions GROUP BY user_uuid")
    assert {text_uuid(u): n for u, n in counted if n} == {text_uuid(u): n for u, n in rows}
    # the summary's spend: the days the database keeps equal the purchases they sum
    kept = await reader.rows("SELECT user_uuid, currency, spent_on, amount FROM daily_spend")
    spent = await reader.rows(
        "SELECT user_uuid, currency, created_at, amount FROM transactions"
        " WHERE type = 'card_purchase' AND status IN ('pending', 'completed')"
    )
    by_day: dict[tuple[str | None, str, str], int] = {}
    for user_uuid, currency, created_at, amount in spent:
        day = (text_uuid(user_uuid), currency, _day(created_at))
        by_day[day] = by_day.get(day, 0) + amount
    assert {(text_uuid(u), c, str(d)): a for u, c, d, a in kept if a} == by_day
    # the spending controls' windows: each card's days equal what its purchases count
    card_days = await reader.rows("SELECT card_uuid, spent_on, amount FROM card_spend")
    counted_purchases = await reader.rows(
        "SELECT card_uuid, created_at, amount - refunded_amount FROM transactions"
        " WHERE type = 'card_purchase' AND status IN ('pending', 'completed', 'refunded')"
    )
    by_card_day: dict[tuple[str | None, str], int] = {}
    for card_uuid, created_at, amount in counted_purchases:
        card_day = (text_uuid(card_uuid), _day(created_at))
        by_card_day[card_day] = by_card_day.get(card_day, 0) + amount
    assert {(text_uuid(c), str(d)): a for c, d, a in card_days if a} == {
        k: a for k, a in by_card_day.items() if a
    }
    await _assert_holds_match(reader)


def _day(stamp: object) -> str:
    """The UTC day of a timestamp column, as `YYYY-MM-DD`."""
    moment = as_datetime(stamp)
    assert moment is not None
    return moment.date().isoformat()


async def _assert_holds_match(reader: Reader) -> None:
    """The `holds` book holds exactly what pending purchases (and ATM withdrawals) still hold,
    per currency; no
    purchase captured more than its authorization plus 20 %, nor holds anything unless
    pending (released + captured = held) — except what a clearing file presented, which is
    never refused (docs/network.md#clearing-files); a foreign-currency purchase's merchant amounts
    follow the same rules in the merchant's currency."""
    booked = {
        currency: total
        for currency, total in await reader.rows(
            "SELECT currency, sum(amount) FROM postings WHERE system_book = 'holds'"
            " GROUP BY currency"
        )
    }
    purchases = await reader.rows(
        "SELECT status, currency, amount, authorized_amount, captured_amount,"
        " merchant_currency, merchant_amount, merchant_captured_amount, clearing"
        " FROM transactions WHERE type IN ('card_purchase', 'atm_withdrawal')"
        " AND status != 'declined'"
    )
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
