"""The service's periodic jobs, run by its one background loop (webhooks/worker.py) between
its delivery steps: each job runs at once on start, then every `every(settings)` seconds.

A domain defines its job (`Job`; the hold sweep: `transactions.expiry.HOLD_SWEEP_JOB`) and
the composition root (`cardservice.runtime.JOBS`) hands the list to the loop, so the loop
knows no domain's schedule and nothing registers itself at import.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from cardservice.config import Settings
from cardservice.db.database import Database


@dataclass(frozen=True, slots=True)
class Job:
    """`run(db)` every `every(settings)` seconds."""

    name: str
    every: Callable[[Settings], float]
    run: Callable[[Database], Awaitable[object]]


class Schedule:
    """When each job is next due, for one loop (monotonic time; all due at once on start)."""

    def __init__(self, settings: Settings, jobs: Sequence[Job]) -> None:
        self._settings = settings
        self._jobs = tuple(jobs)
        self._next: dict[str, float] = {}

    async def run_due(self, db: Database) -> None:
        """Run the jobs that are due, one after the other."""
        for job in self._jobs:
            if time.monotonic() >= self._next.get(job.name, 0.0):
                self._next[job.name] = time.monotonic() + job.every(self._settings)
                await job.run(db)
