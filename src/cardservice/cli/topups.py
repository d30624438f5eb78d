"""`cardservice topups expire`: expire the unpaid top-ups due now
(docs/operations.md#running-a-program; the background loop does it too, topups/service.py
`register`)."""

from __future__ import annotations

from datetime import datetime

import click

from cardservice.cli.arguments import due_at, run_job, runs
from cardservice.config import Settings
from cardservice.topups import sweep_expired_topups


@click.group(name="topups")
def topups() -> None:
    """Top-ups (docs/operations.md#running-a-program)."""


@topups.command(name="expire")
@due_at("Expire")
@runs
async def expire(settings: Settings, now: datetime | None) -> str:
    """Expire the unpaid top-ups due; prints how many."""
    return await run_job(settings, sweep_expired_topups, now)
