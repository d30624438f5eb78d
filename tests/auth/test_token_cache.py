"""The token cache (docs/security.md, "The token cache"): a checked bearer token is
remembered for `auth_cache_seconds`; revocation elsewhere takes effect within that bound,
revocation in this process and the token's own expiry at once."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import httpx
from fastapi import FastAPI

from cardservice.auth.credentials import TokenCache, digest
from cardservice.models.base import utcnow
from tests.factories import make_user

REVOKE_ELSEWHERE = "UPDATE api_tokens SET revoked_at = $1 WHERE token_hash = $2"


async def test_a_token_revoked_by_another_process_stops_within_the_bound(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    app.state.tokens = TokenCache(0.5)
    user = await make_user(app)
    assert (await client.get("/accounts", headers=user.headers)).status_code == 200
    # what the CLI or another instance does: the row changes, this process is not told
    await app.state.db.transact(
        lambda tx: tx.execute(REVOKE_ELSEWHERE, utcnow(), digest(user.token))
    )
    assert (await client.get("/accounts", headers=user.headers)).status_code == 200
    await asyncio.sleep(0.6)
    assert (await client.get("/accounts", headers=user.headers)).status_code == 401


async def test_a_cached_token_that_expires_is_refused_at_once(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    app.state.tokens = TokenCache(60)
    user = await make_user(app, expires_in=timedelta(seconds=1))
    assert (await client.get("/accounts", headers=user.headers)).status_code == 200
    await asyncio.sleep(1.1)
    assert (await client.get("/accounts", headers=user.headers)).status_code == 401


async def test_unknown_tokens_are_never_cached(app: FastAPI, client: httpx.AsyncClient) -> None:
    app.state.tokens = TokenCache(60)
    headers = {"Authorization": "Bearer cs_not_a_token"}
    for _ in range(2):
        assert (await client.get("/accounts", headers=headers)).status_code == 401
    assert app.state.tokens.get(digest("cs_not_a_token")) is None


async def test_zero_seconds_turns_the_cache_off(app: FastAPI, client: httpx.AsyncClient) -> None:
    app.state.tokens = TokenCache(0)
    user = await make_user(app)
    assert (await client.get("/accounts", headers=user.headers)).status_code == 200
    await app.state.db.transact(
        lambda tx: tx.execute(REVOKE_ELSEWHERE, utcnow(), digest(user.token))
    )
    assert (await client.get("/accounts", headers=user.headers)).status_code == 401
