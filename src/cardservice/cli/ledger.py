"""`cardservice ledger verify|export`: the ledger's proof, from the command line. (It imports
nothing of `cli_types`, which reads amounts through the ledger: no cycle.)"""

from __future__ import annotations

import asyncio
import sys
from datetime import datetime
from typing import Any

import click

from cardservice import runtime
from cardservice.config import Settings
from cardservice.ledger.chain import parse_instant
from cardservice.ledger.verify import export_lines, verify
from cardservice.observability.logs import configure_logging


def _settings() -> Settings:
    """The command's settings and its logs on stderr, as `cli_types.settings` makes them."""
    found = Settings()
    configure_logging(found.log_level, found.log_format)
    return found


async def _verify(settings: Settings, seal: bool) -> tuple[bool, str]:
    db = runtime.database(settings)
    try:
        check = await verify(db, seal=seal)
    finally:
        await db.dispose()
    if not check.ok:
        return False, f"mismatch: {check.problem}\n(the {check.entries} entries before it hold)"
    text = f"ok {check.entries} entries\nhead {check.entries} {check.head}"
    if check.unsealed:
        text += f"\n{check.unsealed} entries not sealed yet"
    return True, text


@click.group(name="ledger")
def ledger() -> None:
    """The ledger's hash chain: verify or export it."""


@ledger.command(name="verify")
@click.option(
    "--no-seal",
    "no_seal",
    is_flag=True,
    help="Do not seal the entries waiting for the sealer first: count them (a mismatch when "
    "one has waited 60 s).",
)
def verify_chain(no_seal: bool) -> None:
    """Seal what waits, then walk the hash chain and every balance.

    Prints `ok N entries` and the head (to keep), and `N entries not sealed yet` if some
    committed meanwhile; or the first mismatch and exits 1."""
    ok, text = asyncio.run(_verify(_settings(), seal=not no_seal))
    print(text)
    if not ok:
        raise SystemExit(1)


async def _export(settings: Settings, until: datetime, out: Any) -> int:
    db = runtime.database(settings)
    count = 0
    try:
        async for line in export_lines(db, until):
            out.write(line + "\n")
            count += 1
    finally:
        await db.dispose()
    return count


def _instant(_ctx: click.Context, _param: click.Parameter, text: str) -> datetime:
    try:
        return parse_instant(text)
    except ValueError:
        raise click.BadParameter(f"not an ISO 8601 instant: {text!r}") from None


@ledger.command(name="export")
@click.option(
    "--until",
    callback=_instant,
    required=True,
    metavar="INSTANT",
    help="The entries before this instant, ISO 8601, e.g. 2026-12-01T00:00:00Z "
    "(a naive instant is UTC).",
)
@click.option(
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    help="Write to this file instead of stdout.",
)
def export_chain(until: datetime, output: str | None) -> None:
    """The chain as JSON lines, for an outside auditor.

    Seals every entry created up to --until first; then each entry with its hashes, on
    stdout or in --output; the count on stderr."""
    if output:
        with open(output, "w", encoding="ascii") as out:
            count = asyncio.run(_export(_settings(), until, out))
    else:
        count = asyncio.run(_export(_settings(), until, sys.stdout))
    print(f"exported {count} entries", file=sys.stderr)
