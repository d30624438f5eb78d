"""`GET /ready` always says how rate limits are counted: `redis` is `off` without Redis (the
`ok` and `degraded` answers are in test_rate_limit_redis.py)."""

from __future__ import annotations

import httpx


async def test_ready_says_redis_is_off_when_none_is_configured(client: httpx.AsyncClient) -> None:
    ready = await client.get("/ready")
    assert ready.status_code == 200
    assert ready.json() == {"success": True, "data": {"status": "ready", "redis": "off"}}
