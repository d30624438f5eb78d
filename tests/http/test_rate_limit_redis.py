"""With CARDSERVICE_REDIS_URL, instances share their rate limits (Redis at 127.0.0.1:6379);
without Redis, or when it goes away, each instance limits on its own (docs/api.md#hardening)."""

from __future__ import annotations

import socket
import subprocess
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from redis.asyncio import Redis

from cardservice.app import create_app
from cardservice.config import Settings
from tests.factories import Caller, make_user

REDIS_URL = "redis://127.0.0.1:6379/15"
NOBODY_LISTENS = 18199  # in this worktree's port range, never bound
OWN_REDIS_PORT = 18150


@pytest.fixture
async def redis_available() -> None:
    client = Redis.from_url(REDIS_URL)
    try:
        await client.ping()
    finally:
        await client.aclose()


async def test_two_instances_share_one_limit(
    app: FastAPI, settings: Settings, redis_available: None
) -> None:
    user = await make_user(app)
    shared = settings.model_copy(update={"redis_url": REDIS_URL, "rate_limit_per_minute": 3})
    first, second = create_app(shared), create_app(shared)
    statuses = []
    try:
        for instance in (first, second, first, second):
            transport = httpx.ASGITransport(app=instance)
            async with httpx.AsyncClient(
                transport=transport, base_url="http://testserver"
            ) as client:
                statuses.append((await client.get("/accounts", headers=user.headers)).status_code)
    finally:
        for instance in (first, second):
            await instance.state.db.dispose()
            await instance.state.rate_limiter.close()
    assert statuses == [200, 200, 200, 429]


async def test_failed_logins_are_counted_across_instances(
    settings: Settings, app: FastAPI, redis_available: None
) -> None:
    shared = settings.model_copy(update={"redis_url": REDIS_URL, "auth_failures_per_minute": 2})
    instances = [create_app(shared), create_app(shared)]
    address = f"10.{uuid.uuid4().int % 250}.0.1"
    statuses = []
    try:
        for instance in instances * 2:
            transport = httpx.ASGITransport(app=instance, client=(address, 5000))
            async with httpx.AsyncClient(
                transport=transport, base_url="http://testserver"
            ) as client:
                bad = {"Authorization": "Bearer cs_wrong"}
                statuses.append((await client.get("/accounts", headers=bad)).status_code)
    finally:
        for instance in instances:
            await instance.state.db.dispose()
            await instance.state.rate_limiter.close()
    assert statuses == [401, 401, 429, 429]


@asynccontextmanager
async def instance(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    """A service instance of its own, with a client."""
    service = create_app(settings)
    transport = httpx.ASGITransport(app=service, raise_app_exceptions=False)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            yield http
    finally:
        await service.state.db.dispose()
        await service.state.rate_limiter.close()


async def _statuses(http: httpx.AsyncClient, caller: Caller, count: int) -> list[int]:
    return [(await http.get("/accounts", headers=caller.headers)).status_code for _ in range(count)]


def _warnings(log_capture: list[str], since: int) -> list[str]:
    return [line for line in log_capture[since:] if "redis unreachable" in line]


async def test_unreachable_redis_degrades_to_in_process_limits(
    app: FastAPI, settings: Settings, log_capture: list[str]
) -> None:
    user = await make_user(app)
    nobody = f"redis://127.0.0.1:{NOBODY_LISTENS}/0"
    since = len(log_capture)
    async with instance(
        settings.model_copy(update={"redis_url": nobody, "rate_limit_per_minute": 3})
    ) as http:
        statuses = await _statuses(http, user, 4)
        ready = await http.get("/ready")
        exposed = (await http.get("/metrics")).text
    assert statuses == [200, 200, 200, 429]  # limited in process, not let through uncounted
    assert "cardservice_rate_limiter_unavailable_total" in exposed
    assert ready.status_code == 200
    assert ready.json()["data"] == {"status": "ready", "redis": "degraded"}
    assert len(_warnings(log_capture, since)) == 1  # one warning a minute, not one a request


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A redis-server of this test's own (never the machine's on 6379), killed at the end."""
    server = subprocess.Popen(
        ["redis-server", "--port", str(OWN_REDIS_PORT), "--save", "", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", OWN_REDIS_PORT), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    yield server
    server.kill()
    server.wait()


async def test_redis_that_goes_away_degrades_and_comes_back(
    app: FastAPI, settings: Settings, own_redis: subprocess.Popen[bytes]
) -> None:
    user = await make_user(app)
    url = f"redis://127.0.0.1:{OWN_REDIS_PORT}/0"
    async with instance(settings.model_copy(update={"redis_url": url})) as http:
        assert (await http.get("/ready")).json()["data"]["redis"] == "ok"
        assert (await http.get("/accounts", headers=user.headers)).status_code == 200
        own_redis.kill()
        own_redis.wait()
        assert (await http.get("/accounts", headers=user.headers)).status_code == 200
        ready = await http.get("/ready")
        assert ready.status_code == 200 and ready.json()["data"]["redis"] == "degraded"
        assert (await http.get("/accounts", headers=user.headers)).status_code == 200


async def test_in_process_limits_are_divided_among_workers(
    app: FastAPI, settings: Settings
) -> None:
    user = await make_user(app)
    two_workers = settings.model_copy(update={"rate_limit_per_minute": 5, "workers": 2})
    async with instance(two_workers) as http:
        statuses = await _statuses(http, user, 3)
    assert statuses == [200, 200, 429]  # 5 // 2 per worker: never more than 5 in all
