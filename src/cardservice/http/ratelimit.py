"""Moving-window rate limits on the `limits` library: in Redis when `REDIS_URL` is set, so
every instance shares them, else in this process.

In-process counters are divided among the worker processes (`WORKERS`, set by `serve
--workers N`): each worker allows `limit // N` (at least 1), so the whole server never
allows more than the setting says; a client whose requests land unevenly on the workers
may be refused a little earlier. When Redis cannot be reached the instance keeps serving
on its in-process counters (divided the same way), warns at most once a minute, and tries
Redis again after `REDIS_RETRY_SECONDS`.

The in-process storage (`MovingWindowStorage`) answers as `limits`' own moving window does,
in O(1) a hit (a bounded deque per key) and with one sweep task instead of `limits`' sweep
after every hit (see the class). The Redis path is `limits`' own storage, unchanged.

A hit asks the storage itself, with the window's key as `limits`' moving-window strategy
names it (`RateLimitItem.key_for`: Redis holds the same keys as before), made once a key
and limit (`_window_key`) rather than at every hit through the strategy: the rate limit's
layer of a read by uuid on SQLite went 4–6 → 2–3 µs (`python -m bench.profile --budget
--databases sqlite --endpoints "GET /transaction/{uuid}"`, load 3.8; docs/performance.md,
"The read by uuid on SQLite").
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING

from limits import RateLimitItemPerMinute
from limits.aio.storage import MemoryStorage, MovingWindowSupport, RedisStorage
from limits.errors import StorageError

from cardservice.db.redis import (
    REDIS_CONNECT_TIMEOUT_SECONDS,
    REDIS_RETRY_SECONDS,
    REDIS_TIMEOUT_SECONDS,
    WARNING_INTERVAL_SECONDS,
)
from cardservice.observability import metrics

if TYPE_CHECKING:
    from redis.asyncio import ConnectionPool

logger = logging.getLogger("cardservice.http.ratelimit")

SWEEP_SECONDS = 10.0
WINDOW_SECONDS = 60  # every limit is per minute
SWEEP_CHUNK = 1_000  # keys swept between two turns of the event loop


@dataclass(frozen=True, slots=True)
class Allowance:
    """The limiter's answer to one hit: allowed, or refused for `retry_after` seconds."""

    allowed: bool
    retry_after: int


ALLOWED = Allowance(True, 0)


class MovingWindowStorage(MemoryStorage):
    """`limits`' in-process moving window, kept as a bounded deque of hit times per key
    instead of `limits`' list: the same allow/deny answers and window statistics, O(1) a
    hit where `limits` prepends to the list (O(hits of the last minute): 21 µs a hit at
    180,000 of them, measured). Only the newest `limit` hits of a key can decide a hit
    (`limits` reads the `limit`-th newest: in the window → refused), so the deque keeps
    those (`maxlen=limit`; a key's limit is part of its name). Synchronous, so no lock.

    One task drops expired hits and idle keys every `SWEEP_SECONDS` (inline, yielding every
    `SWEEP_CHUNK` keys): measured, `limits`' own sweep ran after every hit and sent each
    key through a thread, 0.72 s of CPU in 3 s at 100 hits/s with only 100 keys. A hit the
    sweep drops is one no later hit could count: the answers never depend on it."""

    def __init__(self) -> None:
        super().__init__()
        self.windows: dict[str, tuple[deque[float], int]] = {}  # key: (hit times, expiry)

    async def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if amount > limit:
            return False
        if self.timer is None or self.timer.done():
            self.timer = asyncio.create_task(self._sweep_forever())
        now = time.time()
        held = self.windows.get(key)
        if held is None:
            held = self.windows[key] = (deque(maxlen=limit), expiry)
        window = held[0]
        decisive = len(window) - 1 - (limit - amount)  # `limits`' events[limit - amount]
        if decisive >= 0 and window[decisive] >= now - expiry:
            return False
        window.extend([now] * amount)  # the oldest beyond `limit` fall off the left
        return True

    async def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        """(the oldest hit still in the window, how many are); as `limits` answers."""
        now = time.time()
        held = self.windows.get(key)
        if held is None or not held[0]:
            return now, 0
        window, cutoff = held[0], now - expiry
        for out, atime in enumerate(window):  # oldest first; after a refusal, few are out
            if atime > cutoff:
                return atime, len(window) - out
        # None in the window (a hit exactly `expiry` old still refuses but counts out):
        # `limits` answers the oldest hit it kept, this the oldest of the last `limit`; the
        # Retry-After of either is 1.
        return window[0], 0

    async def clear(self, key: str) -> None:
        self.windows.pop(key, None)
        await super().clear(key)

    async def reset(self) -> int | None:
        count = len(self.windows)
        self.windows.clear()
        await super().reset()
        return count

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            await self.sweep(time.time())

    async def sweep(self, now: float) -> None:
        """Forget the hits that left the window before `now`, and keys left with none."""
        for done, key in enumerate(list(self.windows)):
            held = self.windows.get(key)
            if held is not None:
                window, expiry = held
                cutoff = now - expiry
                while window and window[0] < cutoff:
                    window.popleft()
                if not window:
                    del self.windows[key]
            if done % SWEEP_CHUNK == SWEEP_CHUNK - 1:
                await asyncio.sleep(0)

    async def close(self) -> None:
        """Stop the sweep task, awaited so that none is left pending on the loop, and forget
        every key."""
        if self.timer is not None:
            self.timer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.timer
        self.windows.clear()


class RateLimiter:
    """Counts hits per key against a per-minute limit (moving window)."""

    def __init__(self, redis_url: str = "", workers: int = 1) -> None:
        self._workers = max(1, workers)
        self._memory = MovingWindowStorage()
        self._pool: ConnectionPool | None = None
        self._redis: RedisStorage | None = None
        if redis_url:
            # imported only with Redis configured: ~0.17 s of CPU of every process's start
            from redis.asyncio import ConnectionPool

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
        self._redis_down_until = 0.0
        self._warned_at = -math.inf

    async def hit(self, key: str, limit: int) -> Allowance:
        """Count one event for `key`; refused once the last minute already holds `limit`."""
        if self._redis is not None and time.monotonic() >= self._redis_down_until:
            try:
                return await _count(self._redis, limit, key)
            except StorageError as exc:
                self._redis_failed(exc)
        if self._redis is not None:
            metrics.count_rate_limiter_unavailable()  # limited in process, Redis unreachable
        return await _count(self._memory, max(1, limit // self._workers), key)

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
        await self._memory.close()
        if self._pool is not None:
            await self._pool.aclose()


@functools.lru_cache(maxsize=4096)
def _window_key(key: str, limit: int) -> str:
    """The key of `key`'s window of `limit` a minute, as `limits`' strategies name it."""
    return RateLimitItemPerMinute(limit).key_for(key)


async def _count(storage: MovingWindowSupport, limit: int, key: str) -> Allowance:
    """One hit, as `limits`' `MovingWindowRateLimiter.hit` counts it; when refused, the
    seconds until the oldest hit of the window leaves it (its `get_window_stats`)."""
    window = _window_key(key, limit)
    if await storage.acquire_entry(window, limit, WINDOW_SECONDS):
        return ALLOWED
    oldest, _count = await storage.get_moving_window(window, limit, WINDOW_SECONDS)
    return Allowance(False, max(1, math.ceil(oldest + WINDOW_SECONDS - time.time())))
