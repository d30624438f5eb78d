"""Moving-window rate limits on the `limits` library: in Redis when `REDIS_URL` is set, so
every instance shares them, else in this process.

In-process counters are divided among the worker processes (`WORKERS`, set by `serve
--workers N`): each worker allows `limit // N` (at least 1), so the whole server never
allows more than the setting says; a client whose requests land unevenly on the workers
may be refused a little earlier. When Redis cannot be reached the instance keeps serving
on its in-process counters (divided the same way), warns at most once a minute, and tries
Redis again after `REDIS_RETRY_SECONDS`.

The in-process storage is `limits`' own with its expiry sweep replaced (`SweptMemoryStorage`):
measured, its sweep ran after every hit and sent each key through a thread, 0.72 s of CPU
in 3 s at 100 hits/s with only 100 keys, growing with the keys (an attacker's addresses).
"""

from __future__ import annotations

import asyncio
import bisect
import functools
import logging
import math
import time
from dataclasses import dataclass

from limits import RateLimitItem, RateLimitItemPerMinute
from limits.aio.storage import MemoryStorage, RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from redis.asyncio import ConnectionPool

from cardservice import metrics

logger = logging.getLogger("cardservice.ratelimit")

SWEEP_SECONDS = 10.0
SWEEP_CHUNK = 1_000  # keys swept between two turns of the event loop
# Bounded waits for a hung Redis, generous enough that a loaded host does not fall back
# (1 s did, measured on the fleet); after one failure Redis is skipped for the retry delay,
# so a hung Redis costs one slow request per `REDIS_RETRY_SECONDS`, not every request.
REDIS_CONNECT_TIMEOUT_SECONDS = 2.0
REDIS_TIMEOUT_SECONDS = 5.0
REDIS_RETRY_SECONDS = 5.0
WARNING_INTERVAL_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class Verdict:
    allowed: bool
    retry_after: int


class SweptMemoryStorage(MemoryStorage):
    """`limits`' in-process moving-window storage, with one task that drops expired entries
    every `SWEEP_SECONDS` (inline, yielding every `SWEEP_CHUNK` keys) instead of its own
    sweep after each hit. A window's answer never depends on the sweep: expired entries
    are ignored by `acquire_entry` and `get_moving_window` either way."""

    async def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if self.timer is None or self.timer.done():  # the parent skips its sweep while set
            self.timer = asyncio.create_task(self._sweep_forever())
        return await super().acquire_entry(key, limit, expiry, amount)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            await self.sweep(time.time())

    async def sweep(self, now: float) -> None:
        """Forget the entries that expired by `now`, and keys left with none."""
        for done, key in enumerate(list(self.events)):
            events = self.events.get(key, [])
            live = bisect.bisect_left(events, -now, key=lambda entry: -entry.expiry)
            if live == 0:
                self.events.pop(key, None)
                self.locks.pop(key, None)
            elif live < len(events):
                self.events[key] = events[:live]
            if done % SWEEP_CHUNK == SWEEP_CHUNK - 1:
                await asyncio.sleep(0)

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.events.clear()
        self.locks.clear()


class RateLimiter:
    """Counts hits per key against a per-minute limit (moving window)."""

    def __init__(self, redis_url: str = "", workers: int = 1) -> None:
        self._workers = max(1, workers)
        self._memory_storage = SweptMemoryStorage()
        self._memory = MovingWindowRateLimiter(self._memory_storage)
        self._pool: ConnectionPool | None = None
        self._redis: RedisStorage | None = None
        self._shared: MovingWindowRateLimiter | None = None
        if redis_url:
            self._pool = ConnectionPool.from_url(
                redis_url,
                socket_connect_timeout=REDIS_CONNECT_TIMEOUT_SECONDS,
                socket_timeout=REDIS_TIMEOUT_SECONDS,
            )
            self._redis = RedisStorage(
                "async+" + redis_url,
                implementation="redispy",
                wrap_exceptions=True,
                key_prefix="cardservice",
                connection_pool=self._pool,  # type: ignore[arg-type]
            )
            self._shared = MovingWindowRateLimiter(self._redis)
        self._redis_down_until = 0.0
        self._warned_at = -math.inf

    async def hit(self, key: str, limit: int) -> Verdict:
        """Count one event for `key`; refused once the last minute already holds `limit`."""
        if self._shared is not None and time.monotonic() >= self._redis_down_until:
            try:
                return await _count(self._shared, _per_minute(limit), key)
            except StorageError as exc:
                self._redis_failed(exc)
        if self._shared is not None:
            metrics.count_rate_limiter_unavailable()  # limited in process, Redis unreachable
        return await _count(self._memory, _per_minute(max(1, limit // self._workers)), key)

    async def redis_status(self) -> str | None:
        """`ok` or `degraded` (Redis unreachable: in-process counters); None without Redis."""
        if self._redis is None:
            return None
        if not await self._redis.check():  # PING; any failure is False
            self._redis_failed(ConnectionError("PING failed"))
            return "degraded"
        self._redis_down_until = 0.0
        return "ok"

    def _redis_failed(self, exc: BaseException) -> None:
        now = time.monotonic()
        self._redis_down_until = now + REDIS_RETRY_SECONDS
        if now - self._warned_at >= WARNING_INTERVAL_SECONDS:
            self._warned_at = now
            logger.warning(
                "redis unreachable; rate limits use this instance's own counters",
                extra={"error": type(exc).__name__},
            )

    async def close(self) -> None:
        self._memory_storage.close()
        if self._pool is not None:
            await self._pool.aclose()


@functools.lru_cache(maxsize=64)
def _per_minute(limit: int) -> RateLimitItem:
    """The limit's `limits` item, made once (a few settings' values, not one per request)."""
    return RateLimitItemPerMinute(limit)


async def _count(limiter: MovingWindowRateLimiter, item: RateLimitItem, key: str) -> Verdict:
    if await limiter.hit(item, key):
        return Verdict(True, 0)
    reset_at, _remaining = await limiter.get_window_stats(item, key)
    return Verdict(False, max(1, math.ceil(reset_at - time.time())))
