"""CPU of the in-process rate limiter under steady traffic, with many keys held.

`python -m bench.ratelimit_cpu`: 100 hits/s for 3 s on one key while 100 or 20,000 other
keys (an attacker's addresses) sit in the window; prints the process CPU for each, beside
an idle loop's. `limits`' own memory storage measured 0.72 s / 1.05 s here (its sweep after
every hit); our storage with its own sweep task 0.06 s / 0.07 s (idle loop 0.04 s; then
`SweptMemoryStorage`, now `MovingWindowStorage`).

Then the CPU of one hit on a key that already holds 1,000, 12,000 or 180,000 hits of the
last minute (a token under `bench.run`'s limit of 100,000,000 a minute), for `limits`' own
storage (its list, prepended to) and for `MovingWindowStorage` (a bounded deque).
"""

from __future__ import annotations

import asyncio
import resource
import time

from limits import RateLimitItemPerMinute
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import MovingWindowRateLimiter

from cardservice.http.ratelimit import MovingWindowStorage, RateLimiter, _count


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _steady(limiter: RateLimiter | None, seconds: float = 3.0) -> float:
    started_cpu, started = _cpu(), time.perf_counter()
    while time.perf_counter() - started < seconds:
        if limiter is not None:
            await limiter.hit("token:steady", 100_000)
        await asyncio.sleep(0.01)
    return _cpu() - started_cpu


async def main() -> None:
    print(f"idle loop: {await _steady(None):.2f} s CPU")
    for keys in (100, 20_000):
        limiter = RateLimiter()
        for i in range(keys):
            await limiter.hit(f"authfail:k{i}", 30)
        print(f"{keys} keys held: {await _steady(limiter):.2f} s CPU over 3 s at 100 hits/s")
        await limiter.close()
    for name, storage in (("limits' list", MemoryStorage()), ("deque", MovingWindowStorage())):
        await _per_hit(name, storage)


async def _per_hit(name: str, storage: MemoryStorage) -> None:
    if not isinstance(storage, MovingWindowStorage):  # `limits`' sweep after each hit: off
        storage.timer = asyncio.get_running_loop().create_future()  # type: ignore[assignment]
    limiter, item, held = MovingWindowRateLimiter(storage), RateLimitItemPerMinute(10**8), 0
    for target in (1_000, 12_000, 180_000):
        while held < target:
            await _count(limiter, item, "token:x")
            held += 1
        started = time.process_time_ns()
        for _ in range(2_000):
            await _count(limiter, item, "token:x")
        held += 2_000
        cpu_us = (time.process_time_ns() - started) / 2_000 / 1_000
        print(f"{name}: {cpu_us:.2f} µs CPU a hit with {target:,} hits held")
    if storage.timer is not None:
        storage.timer.cancel()


if __name__ == "__main__":
    asyncio.run(main())
