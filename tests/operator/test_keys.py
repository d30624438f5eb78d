"""Operator keys (docs/operations.md#running-a-program): who may call /operator/* and /network/*,
and with which scope."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from cardservice.db.sql import Tx
from cardservice.operator.acting import CLI
from cardservice.operator.api_keys import list_keys, revoke_key
from tests.factories import make_mfa_code, make_user
from tests.operator.helpers import operator_key, send


async def test_a_key_is_stored_only_as_its_hash(app: FastAPI) -> None:
    key = await operator_key(app, "users")
    assert key.startswith("csk_") and len(key) >= 4 + 43  # 32 random bytes, base64url
    stored = await app.state.db.reader.rows("SELECT key_hash, prefix FROM operator_keys")
    assert len(stored) == 1 and key not in stored[0][0] and key.startswith(stored[0][1])


async def test_without_credentials_operator_routes_answer_401(client: httpx.AsyncClient) -> None:
    response = await client.get("/operator/users")
    assert response.status_code == 401
    assert response.json()["code"] == "unauthenticated"


async def test_an_unknown_operator_key_is_401(client: httpx.AsyncClient) -> None:
    response = await send(client, "GET", "/operator/users", "csk_" + "x" * 43)
    assert response.status_code == 401


async def test_a_cardholder_token_or_code_on_an_operator_route_is_403(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    response = await client.get("/operator/users", headers=user.headers)
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    code = await make_mfa_code(app, user)
    response = await client.get(f"/operator/users?_code={code}")
    assert response.status_code == 403 and response.json()["code"] == "forbidden"


async def test_an_operator_key_on_a_cardholder_route_is_401(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app)
    response = await client.get("/accounts", headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 401 and response.json()["code"] == "unauthenticated"


async def test_a_key_without_the_scope_is_403(app: FastAPI, client: httpx.AsyncClient) -> None:
    funding_only = await operator_key(app, "funding")
    response = await send(client, "GET", "/operator/users", funding_only)
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    body = {"email": "a@example.com", "name": "A"}
    response = await send(client, "POST", "/operator/users", funding_only, body)
    assert response.status_code == 403
    users_only = await operator_key(app, "users")
    body = {"user_uuid": "00000000-0000-4000-8000-000000000000", "name": "X", "currency": "USD"}
    response = await send(client, "POST", "/operator/accounts", users_only, body)
    assert response.status_code == 403
    assert await app.state.db.reader.value("SELECT count(*) FROM users") == 0


async def test_a_revoked_key_is_401_at_once(app: FastAPI, client: httpx.AsyncClient) -> None:
    key = await operator_key(app, "users")
    assert (await send(client, "GET", "/operator/users", key)).status_code == 200

    async def revoke(tx: Tx) -> int:
        return await revoke_key(tx, CLI, key[:12])

    assert await app.state.db.transact(revoke) == 1
    assert (await send(client, "GET", "/operator/users", key)).status_code == 401
    listed = await list_keys(app.state.db.reader)
    assert listed[0]["revoked_at"] is not None and listed[0]["scopes"] == ["users"]


async def test_the_openapi_document_declares_operator_key(client: httpx.AsyncClient) -> None:
    schema = (await client.get("/openapi.json")).json()
    assert schema["components"]["securitySchemes"]["operatorKey"]["scheme"] == "bearer"
    for path, item in schema["paths"].items():
        if path.startswith(("/operator/", "/network/")):
            for operation in item.values():
                assert operation["security"] == [{"operatorKey": []}], path
