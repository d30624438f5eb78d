"""`cardservice ledger verify|export`: the ledger's proof, from the command line."""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import datetime
from typing import Any

from cardservice.config import Settings
from cardservice.db import Database
from cardservice.ledger.chain import parse_instant
from cardservice.ledger.verify import export_lines, verify


async def _verify(settings: Settings) -> tuple[bool, str]:
    db = Database(settings)
    try:
        verdict = await verify(db.reader)
    finally:
        await db.dispose()
    if verdict.ok:
        return True, f"ok {verdict.entries} entries\nhead {verdict.entries} {verdict.head}"
    return False, f"mismatch: {verdict.problem}\n(the {verdict.entries} entries before it hold)"


def _run_verify(args: argparse.Namespace, settings: Settings) -> None:
    """Prints `ok N entries` (and the head, to keep), or the first mismatch and exits 1."""
    ok, text = asyncio.run(_verify(settings))
    print(text)
    if not ok:
        raise SystemExit(1)


async def _export(settings: Settings, until: datetime, out: Any) -> int:
    db = Database(settings)
    count = 0
    try:
        async for line in export_lines(db.reader, until):
            out.write(line + "\n")
            count += 1
    finally:
        await db.dispose()
    return count


def _run_export(args: argparse.Namespace, settings: Settings) -> None:
    """JSON lines on stdout, or in `--output`; the count on stderr."""
    if args.output:
        with open(args.output, "w", encoding="ascii") as out:
            count = asyncio.run(_export(settings, args.until, out))
    else:
        count = asyncio.run(_export(settings, args.until, sys.stdout))
    print(f"exported {count} entries", file=sys.stderr)


def _instant(text: str) -> datetime:
    try:
        return parse_instant(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO 8601 instant: {text!r}") from None


def register(sub: Any) -> None:
    """Add `ledger verify` and `ledger export --until` to the CLI."""
    ledger = sub.add_parser("ledger", help="the ledger's hash chain").add_subparsers(
        dest="ledger", required=True
    )
    ledger.add_parser(
        "verify", help="walk the hash chain and every balance; exit 1 on a mismatch"
    ).set_defaults(handler=None, run=_run_verify)
    export = ledger.add_parser("export", help="the chain as JSON lines, for an outside auditor")
    export.add_argument(
        "--until", type=_instant, required=True, help="ISO 8601, e.g. 2026-12-01T00:00:00Z"
    )
    export.add_argument("--output", help="a file (default: stdout)")
    export.set_defaults(handler=None, run=_run_export)
