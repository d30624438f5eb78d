"""Fixed-window rate limits: in-process by default, Redis when several instances share them."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Protocol

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from cardservice import metrics

WINDOW_SECONDS = 60
logger = logging.getLogger("cardservice.ratelimit")


@dataclass(frozen=True, slots=True)
class Verdict:
    allowed: bool
    retry_after: int


class RateLimiter(Protocol):
    async def hit(self, key: str, limit: int) -> Verdict:
        """Count one event for `key`; refuse once the window holds more than `limit`."""

    async def exceeded(self, key: str, limit: int) -> Verdict:
        """Whether `key` is already over `limit` in this window, without counting."""

    async def close(self) -> None: ...


def _window(now: float) -> tuple[int, int]:
    start = int(now) // WINDOW_SECONDS * WINDOW_SECONDS
    return start, start + WINDOW_SECONDS - int(now)


class MemoryRateLimiter:
    """Counters in this process; fine for one instance (the embedded default)."""

    def __init__(self) -> None:
        self._counts: dict[str, tuple[int, int]] = {}

    async def hit(self, key: str, limit: int) -> Verdict:
        start, retry_after = _window(time.time())
        window, count = self._counts.get(key, (start, 0))
        count = count + 1 if window == start else 1
        if len(self._counts) > 100_000:
            self._counts = {k: v for k, v in self._counts.items() if v[0] == start}
        self._counts[key] = (start, count)
        return Verdict(count <= limit, retry_after)

    async def exceeded(self, key: str, limit: int) -> Verdict:
        start, retry_after = _window(time.time())
        window, count = self._counts.get(key, (start, 0))
        return Verdict(not (window == start and count >= limit), retry_after)

    async def close(self) -> None:
        self._counts.clear()


class RedisRateLimiter:
    """Counters in Redis (`INCR` + `EXPIRE`), shared by every instance of the service.

    While Redis cannot be reached (a restart, a failover) the limiter fails open: requests
    are let through, uncounted, and each such request is logged and counted in the metrics,
    rather than failing every request of the API with a 500 for want of a counter. The
    client reconnects on its own once Redis answers again.
    """

    def __init__(self, url: str) -> None:
        # bounded waits for a hung Redis, generous enough that a loaded host never fails open
        self._redis: Redis = Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)

    async def hit(self, key: str, limit: int) -> Verdict:
        start, retry_after = _window(time.time())
        name = f"cardservice:rl:{key}:{start}"
        try:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.incr(name)
                pipe.expire(name, WINDOW_SECONDS + 1)
                count, _ = await pipe.execute()
        except (RedisConnectionError, RedisTimeoutError):
            return _unlimited(retry_after)
        return Verdict(int(count) <= limit, retry_after)

    async def exceeded(self, key: str, limit: int) -> Verdict:
        start, retry_after = _window(time.time())
        try:
            count = await self._redis.get(f"cardservice:rl:{key}:{start}")
        except (RedisConnectionError, RedisTimeoutError):
            return _unlimited(retry_after)
        return Verdict(not (count is not None and int(count) >= limit), retry_after)

    async def close(self) -> None:
        await self._redis.aclose()


def _unlimited(retry_after: int) -> Verdict:
    logger.warning("rate limiter unavailable: request let through uncounted")
    metrics.count_rate_limiter_unavailable()
    return Verdict(True, retry_after)


def make_rate_limiter(redis_url: str) -> RateLimiter:
    return RedisRateLimiter(redis_url) if redis_url else MemoryRateLimiter()
