"""A bad session cookie is a failed authentication of the browser that sent it (issue 28,
item 6). The dashboard calls the API in process; those calls came from 127.0.0.1, so bogus
cookies from any address spent one shared allowance and every other dashboard user (and
every local API client) got 429. Now the in-process call carries the browser's own client
address (docs/api.md#hardening: the socket peer, or the right-most untrusted `X-Forwarded-For` entry
behind a trusted proxy)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
from fastapi import FastAPI

LIMIT = 5


@asynccontextmanager
async def browser(app: FastAPI, address: str, cookie: str) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://testserver", cookies={"cs_session": cookie}
    ) as client:
        yield client


async def _overview(client: httpx.AsyncClient, **headers: str) -> int:
    return (await client.get("/app", headers=headers)).status_code


async def test_bogus_cookies_spend_only_their_own_browsers_allowance(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    app.state.settings = app.state.settings.model_copy(update={"auth_failures_per_minute": LIMIT})
    async with browser(app, "203.0.113.9", "cs_bogus_" + "x" * 40) as attacker:
        answers = [await _overview(attacker) for _ in range(LIMIT + 30)]
    assert answers[:LIMIT] == [303] * LIMIT  # to sign in: the cookie is not a session
    assert set(answers[LIMIT:]) == {429}  # then the attacker's own address is spent
    async with browser(app, "198.51.100.20", "cs_stale_" + "y" * 40) as neighbour:
        assert await _overview(neighbour) == 303  # a stale cookie: sign in again, not 429
    local = await client.get("/accounts", headers={"Authorization": "Bearer cs_wrong"})
    assert local.status_code == 401  # a local API client keeps its own allowance


async def test_behind_a_trusted_proxy_each_browser_is_counted_apart(app: FastAPI) -> None:
    app.state.settings = app.state.settings.model_copy(
        update={"auth_failures_per_minute": LIMIT, "trusted_proxies": "10.0.0.0/8"}
    )
    async with browser(app, "10.0.0.2", "cs_bogus_" + "z" * 40) as proxy:
        spent = [await _overview(proxy, **{"X-Forwarded-For": "203.0.113.50"}) for _ in range(20)]
        assert spent[-1] == 429
        other = await _overview(proxy, **{"X-Forwarded-For": "198.51.100.60"})
        assert other == 303
