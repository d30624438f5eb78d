"""`cardservice team enforce-receipts [--now ISO]`: apply every team's receipt policy at an
instant (docs/teams.md#teams-budgets-requests-receipts; the background loop does it too,
teams/receipts.py `register`)."""

from __future__ import annotations

from datetime import datetime

import click

from cardservice.cli.arguments import due_at, run_job, runs
from cardservice.config import Settings
from cardservice.teams import enforce_receipts


@click.group(name="team")
def team() -> None:
    """Teams (docs/teams.md#teams-budgets-requests-receipts)."""


@team.command(name="enforce-receipts")
@due_at("Remind and freeze")
@runs
async def enforce_receipts_command(settings: Settings, now: datetime | None) -> str:
    """Send the receipt reminders due and freeze the cards due; prints a line per reminder
    (`reminded TRANSACTION`) and per freeze (`froze CARD`), then `reminded N, froze M`."""
    return await run_job(settings, enforce_receipts, now)
