"""`cardservice topups expire`: expire the unpaid top-ups due now (API.md §15; the background
loop does it too, topups/service.py `register`)."""

from __future__ import annotations

from datetime import datetime

import click

from cardservice.cli.arguments import INSTANT, runs
from cardservice.config import Settings
from cardservice.db.database import Database
from cardservice.models.base import utcnow
from cardservice.topups.service import sweep_expired_topups


@click.group(name="topups")
def topups() -> None:
    """Top-ups (API.md §15)."""


@topups.command(name="expire")
@click.option(
    "--now",
    type=INSTANT,
    help="Expire what is due at this ISO 8601 instant, e.g. 2026-12-01T00:00:00Z (default: now).",
)
@runs
async def expire(settings: Settings, now: datetime | None) -> str:
    """Expire the unpaid top-ups due; prints how many."""
    db = Database(settings)
    try:
        return str(await sweep_expired_topups(db, now or utcnow()))
    finally:
        await db.dispose()
