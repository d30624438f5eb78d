"""`cardservice topups expire`: expire the unpaid top-ups due now (API.md §15; the background
loop does it too, topups/service.py `register`)."""

from __future__ import annotations

import argparse
from typing import Any

from cardservice import cli_types
from cardservice.config import Settings
from cardservice.db import Database
from cardservice.models.base import utcnow
from cardservice.topups.service import sweep_expired_topups


async def _expire(args: argparse.Namespace, settings: Settings) -> str:
    db = Database(settings)
    try:
        return str(await sweep_expired_topups(db, args.now or utcnow()))
    finally:
        await db.dispose()


def register(sub: Any) -> None:
    """Add `topups` to the CLI."""
    topups = sub.add_parser("topups", help="top-ups").add_subparsers(dest="topups", required=True)
    expire = topups.add_parser("expire", help="expire the unpaid top-ups due; prints how many")
    expire.add_argument("--now", type=cli_types.instant, help="ISO 8601, e.g. 2026-12-01T00:00:00Z")
    expire.set_defaults(handler=_expire)
