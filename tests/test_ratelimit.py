"""The in-process moving window (`limits` with our sweep): refusals, Retry-After, forgetting."""

from __future__ import annotations

import time

from cardservice.ratelimit import RateLimiter, SweptMemoryStorage


async def test_moving_window_refuses_past_the_limit_with_retry_after() -> None:
    limiter = RateLimiter()
    try:
        verdicts = [await limiter.hit("k", 2) for _ in range(3)]
        assert [v.allowed for v in verdicts] == [True, True, False]
        assert 1 <= verdicts[-1].retry_after <= 60
        assert (await limiter.hit("other", 2)).allowed
    finally:
        await limiter.close()


async def test_sweep_forgets_expired_keys_and_keeps_live_ones() -> None:
    storage = SweptMemoryStorage()
    try:
        assert await storage.acquire_entry("old", 5, 60)
        assert await storage.acquire_entry("new", 5, 600)
        await storage.sweep(time.time() + 61)
        assert set(storage.events) == {"new"}
        assert (await storage.get_moving_window("new", 5, 600))[1] == 1
    finally:
        storage.close()
