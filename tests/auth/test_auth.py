"""Authentication per docs/api.md#authentication: schemes, expiry, revocation, rate limits."""

from __future__ import annotations

from datetime import timedelta

import httpx
from fastapi import FastAPI

from cardservice.auth.credentials import digest, revoke_token
from tests.factories import make_mfa_code, make_user

# Every route with its seed authorization code (A, B) that needs no body to answer 200.
A_READS = [
    "/accounts",
    "/card",
    "/transaction/report",
    "/user/summary",
    "/dictionary/fees",
    "/dictionary/bins",
    "/payment/currencies/crypto",
]


async def test_no_credentials_is_401_with_challenge(client: httpx.AsyncClient) -> None:
    response = await client.get("/accounts")
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    assert response.json() == {
        "success": False,
        "message": "Valid credentials are required.",
        "code": "unauthenticated",
    }


async def test_bad_token_and_bad_code_are_401(client: httpx.AsyncClient) -> None:
    for kwargs in (
        {"headers": {"Authorization": "Bearer cs_nope"}},
        {"params": {"_code": "WRONG"}},
        {"headers": {"Authorization": "Basic abc"}},
    ):
        response = await client.get("/accounts", **kwargs)  # type: ignore[arg-type]
        assert response.status_code == 401, kwargs
        assert response.json()["code"] == "unauthenticated"


async def test_a_routes_accept_bearer_and_mfa(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    code = await make_mfa_code(app, user)
    for path in A_READS:
        assert (await client.get(path, headers=user.headers)).status_code == 200, path
        assert (await client.get(path, params={"_code": code})).status_code == 200, path


async def test_3ds_route_refuses_mfa_with_403(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    code = await make_mfa_code(app, user)
    response = await client.get("/user/3ds-unassigned", params={"_code": code})
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"
    assert (await client.get("/user/3ds-unassigned", headers=user.headers)).status_code == 200
    assert (await client.get("/user/3ds-unassigned")).status_code == 401


async def test_public_dictionaries_ignore_credentials(client: httpx.AsyncClient) -> None:
    for path in ["/dictionary/transaction-statuses", "/dictionary/account-types"]:
        assert (await client.get(path)).status_code == 200
        bad = await client.get(path, headers={"Authorization": "Bearer cs_bad"})
        assert bad.status_code == 200


async def test_expired_token_is_401(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app, expires_in=timedelta(seconds=-1))
    assert (await client.get("/accounts", headers=user.headers)).status_code == 401


async def test_revoked_token_is_401(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    assert (await client.get("/accounts", headers=user.headers)).status_code == 200
    assert await app.state.db.transact(lambda tx: revoke_token(tx, user.token[:11])) == 1
    assert (await client.get("/accounts", headers=user.headers)).status_code == 401


async def test_expired_mfa_code_is_401(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    code = await make_mfa_code(app, user, ttl=timedelta(seconds=-1))
    assert (await client.get("/accounts", params={"_code": code})).status_code == 401


async def test_credentials_are_stored_only_as_hashes(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    issued = await client.post("/auth/mfa-code", headers=user.headers)
    assert issued.status_code == 201
    code = issued.json()["data"]["code"]
    assert len(code) >= 10
    reader = app.state.db.reader
    token_rows = [
        row["token_hash"] for row in await reader.rows("SELECT token_hash FROM api_tokens")
    ]
    code_rows = [row["code_hash"] for row in await reader.rows("SELECT code_hash FROM mfa_codes")]
    assert token_rows == [digest(user.token)] and user.token not in token_rows
    assert code_rows == [digest(code)]
    assert (await client.get("/accounts", params={"_code": code})).status_code == 200


async def test_mfa_code_endpoint_is_bearer_only(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    code = await make_mfa_code(app, user)
    assert (await client.post("/auth/mfa-code", params={"_code": code})).status_code == 403


async def test_tokens_look_like_the_contract(app: FastAPI) -> None:
    user = await make_user(app)
    assert user.token.startswith("cs_") and len(user.token) >= 3 + 43


async def test_auth_failures_per_address_are_rate_limited(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    app.state.settings.auth_failures_per_minute = 3
    statuses = [
        (await client.get("/accounts", headers={"Authorization": f"Bearer cs_bad{i}"})).status_code
        for i in range(5)
    ]
    assert statuses == [401, 401, 401, 429, 429]
    refused = await client.get("/accounts", params={"_code": "WRONGCODE1"})
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert refused.json()["code"] == "rate_limited"


async def test_per_credential_rate_limit(app: FastAPI, client: httpx.AsyncClient) -> None:
    app.state.settings.rate_limit_per_minute = 2
    user = await make_user(app)
    statuses = [(await client.get("/accounts", headers=user.headers)).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    other = await make_user(app)
    assert (await client.get("/accounts", headers=other.headers)).status_code == 200
