"""Card types at purchase (issue 29, docs/security.md#card-details-cvv2-and-issuer-keys): single_use
and merchant_locked, enforced in the one authorization decision; the race of 20 first authorizations
at two merchants on `cardservice serve --workers 2` (PostgreSQL) binds the card to one merchant."""

from __future__ import annotations

import asyncio
import os
import shutil
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from cardservice.db.sql import Tx
from cardservice.transactions.engine import Authorization
from cardservice.transactions.engine import authorize as engine_authorize
from tests.factories import (
    Caller,
    assert_ledger_consistent,
    authorize,
    balances,
    make_card,
    make_user,
)
from tests.fresh_database import create_migrated_database, database_name, drop_database
from tests.stress.bank_run import ADMIN_DSN, Server, _setup


async def card_of(client: httpx.AsyncClient, user: Caller, card: str) -> dict[str, Any]:
    response = await client.get(f"/card/{card}", headers=user.headers)
    assert response.status_code == 200
    data: dict[str, Any] = response.json()["data"]
    return data


async def sandbox(
    client: httpx.AsyncClient, user: Caller, path: str, body: dict[str, Any] | None = None
) -> httpx.Response:
    return await client.post(f"/sandbox/{path}", json=body or {}, headers=user.headers)


async def test_the_type_is_chosen_at_purchase_and_shown(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, plain = await make_card(app, client, user)
    record = await card_of(client, user, plain)
    assert record["card_type"] == "multi_use" and record["locked_merchant"] is None
    _account, once = await make_card(app, client, user, card_type="single_use")
    assert (await card_of(client, user, once))["card_type"] == "single_use"
    listed = (await client.get("/card", headers=user.headers)).json()["data"]["cards"]
    assert {c["card_type"] for c in listed} == {"multi_use", "single_use"}
    refused = await client.post(
        "/card/buy",
        json={"account_uuid": str(_account), "bin_uuid": str(uuid.uuid4()), "card_type": "twice"},
        headers=user.headers,
    )
    assert refused.status_code == 422 and "card_type" in refused.json()["errors"]


async def test_a_single_use_card_takes_one_purchase_and_closes_after_its_capture(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, card_type="single_use")
    first = await authorize(client, user, card, "10")
    assert first.json()["data"]["status"] == "pending"
    second = (await authorize(client, user, card, "5")).json()["data"]
    assert second["status"] == "declined" and second["error"] == "card_closed"
    left = (await card_of(client, user, card))["balance"]
    account_before, _cards = await balances(app, account)
    settled = await sandbox(client, user, f"transactions/{first.json()['data']['uuid']}/settle")
    assert settled.status_code == 201, settled.text
    closed = await card_of(client, user, card)
    assert closed["status"] == "closed" and closed["balance"] == 0
    account_after, card_balances = await balances(app, account)
    assert card_balances == [0] and account_after == account_before + round(left * 100)
    report = (await client.get("/transaction/report", headers=user.headers)).json()["data"]
    assert [t["amount"] for t in report if t["type"] == "card_close"] == [left]
    await assert_ledger_consistent(app)
    third = (await authorize(client, user, card, "1")).json()["data"]
    assert third["status"] == "declined" and third["error"] == "card_closed"


async def test_a_single_use_card_whose_authorization_was_reversed_is_still_usable(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, card_type="single_use")
    first = (await authorize(client, user, card, "10")).json()["data"]
    reversed_ = await sandbox(client, user, f"transactions/{first['uuid']}/reverse")
    assert reversed_.status_code < 300, reversed_.text
    again = (await authorize(client, user, card, "10")).json()["data"]
    assert again["status"] == "pending"


async def test_a_merchant_locked_card_is_bound_by_its_first_approval(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, card_type="merchant_locked")
    poor = (await authorize(client, user, card, "5000", merchant_name="Spotify")).json()["data"]
    assert poor["error"] == "insufficient_funds"
    assert (await card_of(client, user, card))["locked_merchant"] is None  # a decline binds not
    first = (await authorize(client, user, card, "10", merchant_name="Netflix")).json()["data"]
    assert first["status"] == "pending"
    assert (await card_of(client, user, card))["locked_merchant"] == "Netflix"
    other = (await authorize(client, user, card, "10", merchant_name="Spotify")).json()["data"]
    assert other["status"] == "declined" and other["error"] == "merchant_blocked"
    same = (await authorize(client, user, card, "10", merchant_name="Netflix")).json()["data"]
    assert same["status"] == "pending"


async def test_the_network_binds_by_merchant_id(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, card_type="merchant_locked")

    async def at(merchant_id: str, name: str) -> dict[str, Any]:
        message = Authorization(
            card_uuid=uuid.UUID(card),
            amount=100,
            currency="USD",
            merchant_name=name,
            merchant_id=merchant_id,
        )

        async def unit(tx: Tx) -> dict[str, Any]:
            return await engine_authorize(tx, app.state.cipher, user.uuid, message)

        result: dict[str, Any] = await app.state.db.transact(unit)
        return result

    assert (await at("MID000000000001", "SHOP 1"))["status"] == "pending"
    assert (await card_of(client, user, card))["locked_merchant"] == "MID000000000001"
    # the same merchant id under another name is the same merchant; another id is not
    assert (await at("MID000000000001", "SHOP 1 ONLINE"))["status"] == "pending"
    refused = await at("MID000000000002", "SHOP 1")
    assert refused["status"] == "declined" and refused["error_slug"] == "merchant_blocked"


pg_only = pytest.mark.skipif(
    "postgresql" not in os.environ.get("CARDSERVICE_TEST_DATABASES", "sqlite,postgresql"),
    reason="row locks across two server processes: PostgreSQL",
)


@pg_only
async def test_twenty_concurrent_first_authorizations_lock_one_merchant() -> None:
    url = await create_migrated_database(ADMIN_DSN, "cs_types")
    workdir = Path("/tmp", database_name(url))
    workdir.mkdir()  # noqa: ASYNC240 - once, before the server starts
    server = Server(url, workdir, workers=2)
    try:
        await server.start()
        headers, accounts, _cards = await _setup(url, server, "types@example.com")
        async with httpx.AsyncClient(base_url=server.base, headers=headers, timeout=60) as http:
            await http.post("/sandbox/deposits", json={"account_uuid": accounts[0], "amount": 100})
            bins = (await http.get("/dictionary/bins")).json()["data"]
            bin_uuid = next(
                b["uuid"] for b in bins if b["currency"] == "USD" and b["status"] == "available"
            )
            bought = await http.post(
                "/card/buy",
                json={
                    "account_uuid": accounts[0],
                    "bin_uuid": bin_uuid,
                    "start_balance": 50,
                    "card_type": "merchant_locked",
                },
            )
            assert bought.status_code == 201, bought.text
            card = bought.json()["data"]["cards"][0]["uuid"]
            merchants = ["Alpha Store", "Beta Store"] * 10

            async def first(merchant: str) -> httpx.Response:
                body = {
                    "card_uuid": card,
                    "amount": 1,
                    "currency": "USD",
                    "merchant_name": merchant,
                }
                return await http.post("/sandbox/authorizations", json=body)

            answers = await asyncio.gather(*(first(m) for m in merchants))
            assert all(a.status_code == 201 for a in answers), [a.text for a in answers]
            locked = (await http.get(f"/card/{card}")).json()["data"]["locked_merchant"]
            assert locked in ("Alpha Store", "Beta Store")
            for merchant, answer in zip(merchants, answers, strict=True):
                data = answer.json()["data"]
                if merchant == locked:
                    assert data["status"] == "pending", data
                else:
                    assert (data["status"], data["error"]) == ("declined", "merchant_blocked")
    finally:
        server.kill()
        shutil.rmtree(workdir, ignore_errors=True)
        await drop_database(ADMIN_DSN, url)
