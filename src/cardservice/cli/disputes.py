"""`cardservice disputes sweep [--now ISO]`: win the chargebacks and pre-arbitrations left
unanswered at their deadline (docs/disputes.md#deadlines; the background loop does it too)."""

from __future__ import annotations

from datetime import datetime

import click

from cardservice.cli.arguments import due_at, run_job, runs
from cardservice.config import Settings
from cardservice.disputes import sweep_unanswered


@click.group(name="disputes")
def disputes() -> None:
    """Disputes through the network (docs/disputes.md)."""


@disputes.command(name="sweep")
@due_at("Win")
@runs
async def sweep(settings: Settings, now: datetime | None) -> str:
    """Win the disputes unanswered at their deadline; prints how many."""
    return await run_job(settings, sweep_unanswered, now)
