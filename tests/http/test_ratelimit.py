"""The in-process moving window (`MovingWindowStorage`): refusals, Retry-After, forgetting,
and, counted by `ratelimit._count`, the same answers on scripted hits as `limits`' own
in-process moving window counted by `limits`' own strategy."""

from __future__ import annotations

import asyncio
import math
import random
import time

import pytest
from limits import RateLimitItem, RateLimitItemPerMinute
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import MovingWindowRateLimiter

from cardservice.http.ratelimit import Allowance, MovingWindowStorage, RateLimiter, _count


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
    storage = MovingWindowStorage()
    try:
        assert await storage.acquire_entry("old", 5, 60)
        assert await storage.acquire_entry("new", 5, 600)
        await storage.sweep(time.time() + 61)
        assert set(storage.windows) == {"new"}
        assert (await storage.get_moving_window("new", 5, 600))[1] == 1
    finally:
        await storage.close()


class _Reference(MemoryStorage):
    """`limits`' own in-process moving window as the service used it before (its sweep
    after each hit kept off, as the service's sweep task did: it never decided a hit)."""

    async def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if self.timer is None:
            self.timer = asyncio.get_running_loop().create_future()  # type: ignore[assignment]
        return await super().acquire_entry(key, limit, expiry, amount)


class _Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def _by_strategy(
    strategy: MovingWindowRateLimiter, item: RateLimitItem, key: str
) -> Allowance:
    """A hit as `limits`' strategy counts it, and its Retry-After when refused."""
    if await strategy.hit(item, key):
        return Allowance(True, 0)
    reset_at, _remaining = await strategy.get_window_stats(item, key)
    return Allowance(False, max(1, math.ceil(reset_at - time.time())))


async def _both(
    steps: list[tuple[float, str, int]], monkeypatch: pytest.MonkeyPatch, sweep_every: int = 0
) -> list[Allowance]:
    """Each step (time, key, limit) on both storages; asserts equal verdicts, returns them."""
    clock = _Clock()
    monkeypatch.setattr(time, "time", clock)
    reference, storage = _Reference(), MovingWindowStorage()
    old, new = MovingWindowRateLimiter(reference), MovingWindowRateLimiter(storage)
    verdicts = []
    try:
        for n, (at, key, limit) in enumerate(steps):
            clock.now = at
            item = RateLimitItemPerMinute(limit)
            expected = await _by_strategy(old, item, key)
            got = await _count(storage, limit, key)
            assert got == expected, (n, at, key, limit)
            window, expected_window = (
                await new.get_window_stats(item, key),
                await old.get_window_stats(item, key),
            )
            assert window.remaining == expected_window.remaining, (n, at, key)
            if window.remaining < limit:  # with none in the window both answer a hit
                # already out (`limits` the oldest it kept, here the oldest of `limit`):
                # a Retry-After of 1 either way
                assert window.reset_time == expected_window.reset_time, (n, at, key)
            verdicts.append(got)
            if sweep_every and n % sweep_every == 0:
                await storage.sweep(at)
    finally:
        await storage.close()
        if isinstance(reference.timer, asyncio.Future):
            reference.timer.cancel()
    return verdicts


async def test_same_answers_as_limits_at_the_window_edge(monkeypatch: pytest.MonkeyPatch) -> None:
    t = 1_800_000_000.0
    script = [0, 0, 10, 20, 59.9, 60, 60.001, 60.001, 60.002, 69.999, 70, 70.0001, 130, 130.5]
    verdicts = await _both([(t + s, "k", 3) for s in script], monkeypatch, sweep_every=1)
    assert [(v.allowed, v.retry_after) for v in verdicts] == [
        (True, 0),
        (True, 0),
        (True, 0),
        (False, 40),  # the oldest (0) leaves at 60
        (False, 1),
        (False, 10),  # a hit exactly 60 s old still refuses (`limits`: >=), though its
        # statistics count it out (`limits`: >): the next to leave is 10
        (True, 0),  # replaces the first hit of 0
        (True, 0),  # replaces the second
        (False, 10),  # the oldest is now 10
        (False, 1),
        (False, 51),  # 10 is exactly 60 s old: still refuses; next to leave, 60.001
        (True, 0),
        (True, 0),
        (True, 0),
    ]


@pytest.mark.parametrize("seed", range(5))
async def test_same_answers_as_limits_on_random_hits(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    rng = random.Random(seed)
    at, steps = 1_800_000_000.0, []
    for _ in range(3_000):
        at += rng.choice((0.0, 0.0, 0.5, 1.0, 7.25, 30.0, 60.0))
        steps.append((at, rng.choice(("a", "b", "c")), rng.choice((1, 2, 5))))
    verdicts = await _both(steps, monkeypatch, sweep_every=rng.choice((0, 7, 50)))
    assert {v.allowed for v in verdicts} == {True, False}
