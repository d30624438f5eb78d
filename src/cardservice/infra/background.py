"""The service's periodic jobs, run by its one background loop (webhooks/worker.py) between
its delivery steps: each job runs at once on start, then every `every(settings)` seconds.

A domain registers its job at start-up (`add_job`; the hold sweep: `transactions.expiry.
register`, called by create_app and the CLI), so the loop knows no domain's schedule.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from cardservice.config import Settings
from cardservice.db.database import Database


@dataclass(frozen=True, slots=True)
class Job:
    """`run(db)` every `every(settings)` seconds."""

    name: str
    every: Callable[[Settings], float]
    run: Callable[[Database], Awaitable[object]]


_JOBS: dict[str, Job] = {}


def add_job(job: Job) -> None:
    """Run `job` in every background loop of this process (by name: adding it again is a
    no-op)."""
    _JOBS.setdefault(job.name, job)


class Schedule:
    """When each job is next due, for one loop (monotonic time; all due at once on start)."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._next: dict[str, float] = {}

    async def run_due(self, db: Database) -> None:
        """Run the jobs that are due, one after the other."""
        for job in list(_JOBS.values()):
            if time.monotonic() >= self._next.get(job.name, 0.0):
                self._next[job.name] = time.monotonic() + job.every(self._settings)
                await job.run(db)
