"""`cardservice team enforce-receipts [--now ISO]`: apply every team's receipt policy at an
instant (API.md §20; the background loop does it too, teams/receipts.py `register`)."""

from __future__ import annotations

from datetime import datetime

import click

from cardservice.cli.arguments import INSTANT, runs
from cardservice.config import Settings
from cardservice.db.database import Database
from cardservice.models.base import utcnow
from cardservice.teams.receipts import enforce_receipts


@click.group(name="team")
def team() -> None:
    """Teams (API.md §20)."""


@team.command(name="enforce-receipts")
@click.option(
    "--now",
    type=INSTANT,
    help="Apply the policies at this ISO 8601 instant, e.g. 2026-12-01T00:00:00Z (default: now).",
)
@runs
async def enforce_receipts_command(settings: Settings, now: datetime | None) -> str:
    """Send the receipt reminders due and freeze the cards due; prints a line per reminder
    (`reminded TRANSACTION`) and per freeze (`froze CARD`), then `reminded N, froze M`."""
    db = Database(settings)
    try:
        enforced = await enforce_receipts(db, now or utcnow())
    finally:
        await db.dispose()
    lines = [f"reminded {purchase}" for purchase in enforced.reminded]
    lines += [f"froze {card}" for card in enforced.frozen]
    lines.append(f"reminded {len(enforced.reminded)}, froze {len(enforced.frozen)}")
    return "\n".join(lines)
