"""`cardservice clearing ingest FILE`: book a Mastercard IPM clearing file
(docs/network.md#clearing-files) through the same service as `POST /operator/clearing-files`,
printing its report."""

from __future__ import annotations

from pathlib import Path

import click
import orjson

from cardservice import runtime
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
