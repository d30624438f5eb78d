"""CPU of the in-process rate limiter under steady traffic, with many keys held.

`python -m bench.ratelimit_cpu`: 100 hits/s for 3 s on one key while 100 or 20,000 other
keys (an attacker's addresses) sit in the window; prints the process CPU for each, beside
an idle loop's. `limits`' own memory storage measured 0.72 s / 1.05 s here (its sweep after
every hit); our storage with its own sweep task 0.06 s / 0.07 s (idle loop 0.04 s; then
`SweptMemoryStorage`, now `MovingWindowStorage`).
"""

from __future__ import annotations

import asyncio
import resource
import time

from cardservice.ratelimit import RateLimiter


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


if __name__ == "__main__":
    asyncio.run(main())
