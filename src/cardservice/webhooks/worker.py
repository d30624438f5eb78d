"""The delivery loop: publish what has committed, claim what is due, POST it, record it;
and, every `CARDSERVICE_HOLD_SWEEP_SECONDS`, release the holds past their expiry
(transactions/expiry.py) — one loop for the service's background work, not a second one.

Runs as `cardservice worker`, and once inside every `cardservice serve` process unless
`CARDSERVICE_EMBEDDED_WORKER=0`. Attempts run concurrently (up to
`CARDSERVICE_WORKER_CONCURRENCY`), so one hanging receiver holds one slot, not the loop; the
attempts that ended are recorded together at the start of the next step (one unit a step,
not one per attempt).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator
from datetime import timedelta

from cardservice.config import Settings
from cardservice.db import Database
from cardservice.models.base import utcnow
from cardservice.outbound import Outbound
from cardservice.security import CardCipher
from cardservice.topups.service import sweep_expired_topups
from cardservice.transactions.expiry import sweep_expired_holds
from cardservice.webhooks.delivery import Claimed, Finished, claim, post, record
from cardservice.webhooks.queue import publish_committed

log = logging.getLogger("cardservice.webhooks")
ERROR_PAUSE_SECONDS = 1.0


class DeliveryWorker:
    """One delivery loop on a database; `run(stop)` returns soon after `stop` is set.
    Attempts still in flight then are abandoned: their leases expire and another worker
    takes them again (at least once)."""

    def __init__(
        self, db: Database, settings: Settings, cipher: CardCipher, client: Outbound
    ) -> None:
        self._db, self._settings, self._cipher = db, settings, cipher
        self._client = client  # the process's one client for users' URLs; its owner closes it
        self._lease = timedelta(seconds=settings.webhook_lease_seconds)
        self._rng = random.Random()  # noqa: S311 - retry jitter, not a secret
        self._in_flight: set[asyncio.Task[None]] = set()
        self._finished: list[Finished] = []  # attempts made, recorded at the next step
        self._next_sweep = 0.0  # monotonic time of the next hold sweep: at once on start

    async def run(self, stop: asyncio.Event) -> None:
        try:
            while not stop.is_set():
                pause = self._settings.worker_poll_seconds
                try:
                    await self._step()
                except Exception:
                    log.exception("webhook worker step failed")
                    pause = ERROR_PAUSE_SECONDS
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), pause)
        finally:
            for task in self._in_flight:
                task.cancel()
            await asyncio.gather(*self._in_flight, return_exceptions=True)
            await self._record()  # what ended before the stop (it never raises)

    async def _step(self) -> None:
        await self._record()
        await publish_committed(self._db)
        if time.monotonic() >= self._next_sweep:
            self._next_sweep = time.monotonic() + self._settings.hold_sweep_seconds
            await sweep_expired_holds(self._db, utcnow())
            await sweep_expired_topups(self._db, utcnow())  # unpaid top-ups (API.md §15)
        free = self._settings.worker_concurrency - len(self._in_flight)
        if free <= 0:
            return
        for claimed in await claim(self._db, self._cipher, self._lease, free):
            task = asyncio.create_task(self._attempt(claimed))
            self._in_flight.add(task)
            task.add_done_callback(self._in_flight.discard)

    async def _attempt(self, claimed: Claimed) -> None:
        # each attempt is cut at the webhook timeout; never raises
        outcome = await post(self._client, claimed, self._settings)
        self._finished.append(Finished.of(claimed, outcome, self._rng))

    async def _record(self) -> None:
        """Record the attempts that ended since the last step, in one unit. If it fails they
        stay unrecorded: their leases expire and they are made again (at least once)."""
        finished, self._finished = self._finished, []
        try:
            await record(self._db, finished)
        except Exception:
            log.exception("webhook attempts not recorded", extra={"attempts": len(finished)})


@contextlib.asynccontextmanager
async def running_worker(
    db: Database, settings: Settings, cipher: CardCipher, client: Outbound
) -> AsyncIterator[DeliveryWorker]:
    """A delivery loop in the background of the block; stopped when it ends."""
    stop = asyncio.Event()
    worker = DeliveryWorker(db, settings, cipher, client)
    task = asyncio.create_task(worker.run(stop))
    try:
        yield worker
    finally:
        stop.set()
        await task
