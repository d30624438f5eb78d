"""`cardservice clearing ingest FILE`: book a Mastercard IPM clearing file
(docs/network.md#clearing-files) through the same service as `POST /operator/clearing-files`,
printing its report. `cardservice clearing outgoing --date D --out FILE`: write the issuer's
outgoing file of a date (docs/disputes.md) as `POST /operator/clearing-outgoing` does."""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path

import click
import orjson

from cardservice import runtime
from cardservice.clearing.outgoing import write_outgoing
from cardservice.clearing.service import Clearing, ingest
from cardservice.cli.arguments import runs
from cardservice.config import Settings
from cardservice.operator import CLI


@click.group(name="clearing")
def clearing() -> None:
    """Clearing files: the network's presentments, booked (docs/network.md#clearing-files)."""


@clearing.command(name="ingest")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@runs
async def ingest_file(settings: Settings, file: Path) -> str:
    """Book the Mastercard IPM clearing file FILE; prints its report as JSON.

    The same file again prints its first report and moves nothing; a bad file is refused
    whole (exit status 2), nothing moved."""
    parts = runtime.build(settings)
    db, cipher = parts.db, parts.cipher
    try:
        with file.open("rb") as opened:
            done = await ingest(Clearing(db, cipher), opened, CLI)
    finally:
        await parts.aclose()
    return orjson.dumps(done.report, option=orjson.OPT_INDENT_2, default=str).decode()


@clearing.command(name="outgoing")
@click.option(
    "--date", "day", type=click.DateTime(formats=["%Y-%m-%d"]), required=True,
    help="The UTC day of the file, YYYY-MM-DD (today or before).",
)  # fmt: skip
@click.option(
    "--out", type=click.Path(dir_okay=False, writable=True, path_type=Path), required=True,
    help="Where to write the file's bytes.",
)  # fmt: skip
@runs
async def outgoing(settings: Settings, day: datetime, out: Path) -> str:
    """Write the issuer's outgoing IPM file of a date (its chargebacks) to OUT; prints its
    record as JSON. The same date again writes the same bytes and moves nothing."""
    parts = runtime.build(settings)
    try:
        written = await write_outgoing(parts.db, parts.cipher, day.date(), CLI)
    finally:
        await parts.aclose()
    await asyncio.to_thread(out.write_bytes, written.content)
    return orjson.dumps(written.record, option=orjson.OPT_INDENT_2).decode()
