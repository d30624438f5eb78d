"""With CARDSERVICE_REDIS_URL, instances share their rate limits (Redis at 127.0.0.1:6379)."""

from __future__ import annotations

import uuid

import httpx
import pytest
from fastapi import FastAPI
from redis.asyncio import Redis

from cardservice.app import create_app
from cardservice.config import Settings
from tests.factories import make_user

REDIS_URL = "redis://127.0.0.1:6379/15"


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


async def test_requests_pass_uncounted_while_redis_is_unreachable(
    app: FastAPI, settings: Settings
) -> None:
    user = await make_user(app)
    nowhere = settings.model_copy(
        update={"redis_url": "redis://127.0.0.1:1/0", "rate_limit_per_minute": 1}
    )
    instance = create_app(nowhere)
    transport = httpx.ASGITransport(app=instance)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            statuses = [
                (await client.get("/accounts", headers=user.headers)).status_code for _ in range(3)
            ]
            metrics = (await client.get("/metrics")).text
    finally:
        await instance.state.db.dispose()
        await instance.state.rate_limiter.close()
    assert statuses == [200, 200, 200]
    assert "cardservice_rate_limiter_unavailable_total" in metrics
