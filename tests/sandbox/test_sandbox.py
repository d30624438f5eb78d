"""The simulator is there only when enabled, and deposits go through the ledger."""

from __future__ import annotations

import uuid

import httpx
from fastapi import FastAPI

from cardservice.app import create_app
from cardservice.config import Settings
from tests.factories import assert_ledger_consistent, balances, make_account, make_user


async def test_deposit(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    account = await make_account(app, user)
    response = await client.post(
        "/sandbox/deposits",
        headers=user.headers,
        json={"account_uuid": str(account), "amount": 150.25},
    )
    assert response.status_code == 201
    data = response.json()["data"]
    assert data["type"] == "deposit" and data["direction"] == "credit" and data["amount"] == 150.25
    assert await balances(app, account) == (15025, [])
    stranger = await make_user(app)
    foreign = await client.post(
        "/sandbox/deposits",
        headers=stranger.headers,
        json={"account_uuid": str(account), "amount": 1},
    )
    assert foreign.status_code == 404
    unknown = await client.post(
        "/sandbox/deposits",
        headers=user.headers,
        json={"account_uuid": str(uuid.uuid4()), "amount": 1},
    )
    assert unknown.status_code == 404
    await assert_ledger_consistent(app)


async def test_sandbox_routes_are_404_when_disabled(settings: Settings, app: FastAPI) -> None:
    user = await make_user(app)
    disabled = create_app(settings.model_copy(update={"sandbox": False}))
    transport = httpx.ASGITransport(app=disabled)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        response = await client.post(
            "/sandbox/deposits",
            headers=user.headers,
            json={"account_uuid": str(uuid.uuid4()), "amount": 1},
        )
        assert response.status_code == 404 and response.json()["code"] == "not_found"
        assert "/sandbox/deposits" not in (await client.get("/openapi.json")).json()["paths"]
    await disabled.state.db.dispose()


async def test_only_the_refund_body_is_optional(client: httpx.AsyncClient) -> None:
    paths = (await client.get("/openapi.json")).json()["paths"]
    refund = paths["/sandbox/transactions/{transactionUuid}/refund"]["post"]
    assert refund["requestBody"]["required"] is False
    assert paths["/sandbox/authorizations"]["post"]["requestBody"]["required"] is True
