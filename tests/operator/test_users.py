"""Users through the operator API (docs/operations.md#running-a-program): onboarding, listing,
suspension, tokens and sign-in links."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
from fastapi import FastAPI

from cardservice.db.sql import Tx
from cardservice.transactions.engine import Authorization
from cardservice.transactions.engine import authorize as engine_authorize
from tests.factories import ISSUED_SECRETS, authorize, make_card, make_mfa_code, make_user
from tests.operator.helpers import operator_key, send


async def test_onboarding_a_user_and_reading_it_back(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "users")
    body = {"email": "Ada@Example.com", "name": "Ada", "team": "Lab", "role": "owner"}
    created = await send(client, "POST", "/operator/users", key, body)
    assert created.status_code == 201, created.text
    user = created.json()["data"]
    assert user["email"] == "ada@example.com" and user["team"] == "Lab"
    assert user["status"] == "active" and user["program_uuid"] is None
    read = await send(client, "GET", f"/operator/users/{user['uuid']}", key)
    assert read.json()["data"] == user


async def test_an_email_in_use_is_409_email_taken(app: FastAPI, client: httpx.AsyncClient) -> None:
    key = await operator_key(app, "users")
    body = {"email": "bo@example.com", "name": "Bo"}
    assert (await send(client, "POST", "/operator/users", key, body)).status_code == 201
    again = await send(client, "POST", "/operator/users", key, {**body, "name": "Other"})
    assert again.status_code == 409 and again.json()["code"] == "email_taken"


async def test_bad_fields_are_422_and_write_nothing(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "users")
    for body in (
        {"email": "not-an-email", "name": "X"},
        {"email": "x@example.com", "name": ""},
        {"email": "x@example.com", "name": "X", "unknown": 1},
        {
            "email": "x@example.com",
            "name": "X",
            "program_uuid": "00000000-0000-4000-8000-000000000000",
        },
    ):
        response = await send(client, "POST", "/operator/users", key, body)
        assert response.status_code == 422, (body, response.text)
    assert await app.state.db.reader.value("SELECT count(*) FROM users") == 0


async def test_users_are_listed_in_pages_and_filtered(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "users")
    for n in range(5):
        body = {"email": f"u{n}@example.com", "name": f"U{n}"}
        await send(client, "POST", "/operator/users", key, body)
    page = await send(client, "GET", "/operator/users?per_page=2&page=3", key)
    assert page.json()["meta"] == {"current_page": 3, "per_page": 2, "total": 5, "last_page": 3}
    assert [u["email"] for u in page.json()["data"]] == ["u4@example.com"]
    seen = []
    for number in (1, 2, 3):
        response = await send(client, "GET", f"/operator/users?per_page=2&page={number}", key)
        seen += [u["uuid"] for u in response.json()["data"]]
    assert len(set(seen)) == 5
    one = await send(client, "GET", "/operator/users?filters[email]=U3@example.com", key)
    assert [u["name"] for u in one.json()["data"]] == ["U3"]
    bad = await send(client, "GET", "/operator/users?filters[colour]=red", key)
    assert bad.status_code == 422
    bad = await send(client, "GET", "/operator/users?filters[status]=gone", key)
    assert bad.status_code == 422


async def test_a_suspended_users_credentials_answer_401_and_cards_decline(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "users")
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    code = await make_mfa_code(app, user)
    link = await send(client, "POST", f"/operator/users/{user.uuid}/sign-in-links", key)
    assert link.status_code == 201
    secret = link.json()["data"]["url"].split("link=")[1]
    ISSUED_SECRETS.append(secret)
    suspended = await send(
        client, "PATCH", f"/operator/users/{user.uuid}", key, {"status": "suspended"}
    )
    assert suspended.status_code == 200 and suspended.json()["data"]["status"] == "suspended"
    assert (await client.get("/accounts", headers=user.headers)).status_code == 401
    assert (await client.get(f"/accounts?_code={code}")).status_code == 401
    await client.get("/app/login")  # the form's CSRF cookie
    form = {"csrf_token": client.cookies["cs_csrf"], "link": secret}
    assert (await client.post("/app/login/link", data=form)).status_code == 401
    refused = await send(client, "POST", f"/operator/users/{user.uuid}/tokens", key, {})
    assert refused.status_code == 422 and refused.json()["code"] == "user_suspended"
    # the network still reaches the card: it declines account_inactive
    request = Authorization(uuid.UUID(card), 500, "USD", "Shop")

    async def unit(tx: Tx) -> dict[str, Any]:
        return await engine_authorize(tx, app.state.cipher, user.uuid, request)

    declined = await app.state.db.transact(unit)
    assert declined["status"] == "declined" and declined["error_slug"] == "account_inactive"
    await send(client, "PATCH", f"/operator/users/{user.uuid}", key, {"status": "active"})
    assert (await client.get("/accounts", headers=user.headers)).status_code == 200
    approved = await authorize(client, user, card, "5")
    assert approved.json()["data"]["status"] == "pending"


async def test_a_token_issued_by_the_operator_works_and_is_shown_once(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "users")
    created = await send(
        client, "POST", "/operator/users", key, {"email": "t@example.com", "name": "T"}
    )
    user = created.json()["data"]["uuid"]
    issued = await send(
        client, "POST", f"/operator/users/{user}/tokens", key, {"name": "ci", "expires_in_days": 7}
    )
    assert issued.status_code == 201, issued.text
    token = issued.json()["data"]["token"]
    ISSUED_SECRETS.append(token)
    assert token.startswith("cs_") and issued.json()["data"]["expires_at"].endswith("Z")
    summary = await client.get("/user/summary", headers={"Authorization": f"Bearer {token}"})
    assert summary.status_code == 200 and summary.json()["data"]["user"]["uuid"] == user
    unknown = await send(
        client, "POST", "/operator/users/00000000-0000-4000-8000-000000000000/tokens", key, {}
    )
    assert unknown.status_code == 404
