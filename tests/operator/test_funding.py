"""Accounts, credits and debits through the operator API (docs/operations.md#running-a-program)."""

from __future__ import annotations

import asyncio
import uuid

import httpx
from fastapi import FastAPI

from tests.factories import assert_ledger_consistent, balances, make_account, make_user
from tests.operator.helpers import operator_key, send


async def _account(app: FastAPI, funds: str = "0") -> uuid.UUID:
    return await make_account(app, await make_user(app), funds=funds)


async def test_opening_an_account_and_changing_its_status(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "funding", "users")
    user = (
        await send(client, "POST", "/operator/users", key, {"email": "o@example.com", "name": "O"})
    ).json()["data"]
    body = {"user_uuid": user["uuid"], "name": "Main", "currency": "EUR"}
    created = await send(client, "POST", "/operator/accounts", key, body)
    assert created.status_code == 201, created.text
    account = created.json()["data"]
    assert (
        account["balance"] == 0 and account["currency"] == "EUR" and account["status"] == "active"
    )
    assert account["owner"]["uuid"] == user["uuid"]
    frozen = await send(
        client, "PATCH", f"/operator/accounts/{account['uuid']}", key, {"status": "frozen"}
    )
    assert frozen.status_code == 200 and frozen.json()["data"]["status"] == "frozen"
    bad = await send(
        client, "PATCH", f"/operator/accounts/{account['uuid']}", key, {"status": "gone"}
    )
    assert bad.status_code == 422
    unknown_user = {**body, "user_uuid": "00000000-0000-4000-8000-000000000000"}
    assert (await send(client, "POST", "/operator/accounts", key, unknown_user)).status_code == 404


async def test_a_credit_is_a_deposit_and_a_repeat_replays_it(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "funding")
    account = await _account(app)
    path = f"/operator/accounts/{account}/credits"
    body = {"amount": 125.5, "external_id": "wire-1", "description": "Wire in"}
    first = await send(client, "POST", path, key, body)
    assert first.status_code == 201, first.text
    deposit = first.json()["data"]
    assert deposit["type"] == "deposit" and deposit["direction"] == "credit"
    assert deposit["amount"] == 125.5 and deposit["description"] == "Wire in"
    again = await send(client, "POST", path, key, {**body, "amount": 125.50})
    assert again.status_code == 200 and again.json()["data"]["uuid"] == deposit["uuid"]
    assert again.headers["Idempotent-Replayed"] == "true"
    other = await send(client, "POST", path, key, {**body, "amount": 1})
    assert other.status_code == 409 and other.json()["code"] == "idempotency_conflict"
    as_debit = await send(client, "POST", f"/operator/accounts/{account}/debits", key, body)
    assert as_debit.status_code == 409
    assert (await balances(app, account))[0] == 12550
    await assert_ledger_consistent(app)


async def test_a_debit_is_a_withdrawal_refused_beyond_the_balance(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "funding")
    account = await _account(app, funds="100")
    path = f"/operator/accounts/{account}/debits"
    too_much = await send(client, "POST", path, key, {"amount": 100.01, "external_id": "out-1"})
    assert too_much.status_code == 422 and too_much.json()["code"] == "insufficient_funds"
    taken = await send(client, "POST", path, key, {"amount": 100, "external_id": "out-1"})
    assert taken.status_code == 201, taken.text
    assert (
        taken.json()["data"]["type"] == "withdrawal"
        and taken.json()["data"]["direction"] == "debit"
    )
    assert (await balances(app, account))[0] == 0
    listed = await client.get(
        "/transaction/report?filters[type]=withdrawal",
        headers={"Authorization": "Bearer x"},
    )
    assert listed.status_code == 401
    await assert_ledger_consistent(app)


async def test_bad_amounts_and_unknown_accounts(app: FastAPI, client: httpx.AsyncClient) -> None:
    key = await operator_key(app, "funding")
    account = await _account(app)
    path = f"/operator/accounts/{account}/credits"
    for amount in (0, -1, 1.234):
        response = await send(client, "POST", path, key, {"amount": amount, "external_id": "x"})
        assert response.status_code == 422
    missing = await send(client, "POST", path, key, {"amount": 1})
    assert missing.status_code == 422
    unknown = "/operator/accounts/00000000-0000-4000-8000-000000000000/credits"
    response = await send(client, "POST", unknown, key, {"amount": 1, "external_id": "y"})
    assert response.status_code == 404
    assert await app.state.db.reader.value("SELECT count(*) FROM transactions") == 0


async def test_twenty_concurrent_identical_credits_make_one_deposit(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "funding")
    account = await _account(app)
    path = f"/operator/accounts/{account}/credits"
    body = {"amount": 10, "external_id": "same"}
    answers = await asyncio.gather(*(send(client, "POST", path, key, body) for _ in range(20)))
    assert sorted(a.status_code for a in answers) == [200] * 19 + [201]
    assert len({a.json()["data"]["uuid"] for a in answers}) == 1
    assert (await balances(app, account))[0] == 1000
    assert await app.state.db.reader.value("SELECT count(*) FROM transactions") == 1
    await assert_ledger_consistent(app)
