"""The delivery loop: publish what has committed, claim what is due, POST it, record it;
and run the service's periodic jobs that are due (background.py: the hold sweep, every
`CARDSERVICE_HOLD_SWEEP_SECONDS`) and, where mail is configured, send the queued mails
(mail/courier.py, docs/mail.md) — one loop for the service's background work, not a second
one.

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
from collections.abc import AsyncIterator, Sequence
from datetime import timedelta

from cardservice.config import Settings
from cardservice.db.database import Database
from cardservice.infra.background import Job, Schedule
from cardservice.infra.outbound import Outbound
from cardservice.mail.courier import MailCourier
from cardservice.security import CardCipher
from cardservice.webhooks.attempt_log import AttemptLog
from cardservice.webhooks.delivery import Claimed, Finished, claim, post, record
from cardservice.webhooks.queue import publish_committed

log = logging.getLogger("cardservice.webhooks")
ERROR_PAUSE_SECONDS = 1.0


class DeliveryWorker:
    """One delivery loop on a database; `run(stop)` returns soon after `stop` is set.
    Attempts still in flight then are abandoned: their leases expire and another worker
    takes them again (at least once)."""

    def __init__(
        self,
        db: Database,
        settings: Settings,
        cipher: CardCipher,
        client: Outbound,
        jobs: Sequence[Job],
    ) -> None:
        self._db, self._settings, self._cipher = db, settings, cipher
        self._client = client  # the process's one client for users' URLs; its owner closes it
        self._lease = timedelta(seconds=settings.webhook_lease_seconds)
        self._rng = random.Random()  # noqa: S311 - retry jitter, not a secret
        self._in_flight: set[asyncio.Task[None]] = set()
        self._finished: list[Finished] = []  # attempts made, recorded at the next step
        self._attempt_log = AttemptLog()  # one line for a run of attempts
        self._schedule = Schedule(settings, jobs)  # the periodic jobs: all due at once on start
        self._courier = MailCourier(db, settings) if settings.smtp_url else None

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
            if self._courier is not None:
                await self._courier.close()
            await self._record()  # what ended before the stop (it never raises)
            self._attempt_log.flush(idle=True)

    async def _step(self) -> None:
        await self._record()
        await publish_committed(self._db)
        await self._schedule.run_due(self._db)
        if self._courier is not None:
            await self._courier.step()
        free = self._settings.worker_concurrency - len(self._in_flight)
        claimed = await claim(self._db, self._cipher, self._lease, free) if free > 0 else []
        for one in claimed:
            task = asyncio.create_task(self._attempt(one))
            self._in_flight.add(task)
            task.add_done_callback(self._in_flight.discard)
        self._attempt_log.flush(idle=not self._in_flight and not self._finished)

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
            return
        self._attempt_log.add(finished)


@contextlib.asynccontextmanager
async def running_worker(
    db: Database, settings: Settings, cipher: CardCipher, client: Outbound, jobs: Sequence[Job]
) -> AsyncIterator[DeliveryWorker]:
    """A delivery loop in the background of the block, running `jobs` when due (the
    runtime's, `cardservice.runtime.JOBS`); stopped when the block ends."""
    stop = asyncio.Event()
    worker = DeliveryWorker(db, settings, cipher, client, jobs)
    task = asyncio.create_task(worker.run(stop))
    try:
        yield worker
    finally:
        stop.set()
        await task
