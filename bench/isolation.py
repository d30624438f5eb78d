"""ISO 8583 authorizations while the heaviest HTTP requests run on the same server
(docs/network.md#isolation-from-other-work, "Authorizations are never held up by other work"), in
one run on one PostgreSQL database:

1. quiet: authorizations at a fixed rate (open loop, each answer timed from when its request
   was due, as `bench.iso` at half peak) for `--seconds`, nothing else running;
2. busy: the same load while 5,000-line statement PDFs and a CSV export of the whole history
   (1,000,000 rows) run back to back, one at a time, for one round (PDFs, the export, PDFs).

The p99 of each and their ratio busy ÷ quiet (the target is ≤ 1.5). The heavy requests are
fetched by `curl` processes into /dev/null, so that reading 300 MB of CSV does not slow the
load generator's own loop; `cardservice serve --iso8583-port` is one HTTP worker and its
network process, as `make run` starts it.

    python -m bench.isolation --seconds 20                       # make bench
    python -m bench.isolation --seconds 10 --transactions 100000 # a quick look

The machine is shared: compare the two phases of one run, not runs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import orjson

from bench.dataset import TRANSACTION_COLUMNS, DataSet, _heavy_user, _history
from bench.iso import (
    ADMIN_DSN,
    KEY,
    _free_port,
    _percentiles,
    _setup,
    _spawn,
    _vacuum,
    _wait_port,
    iso_load,
)
from cardservice import runtime
from cardservice.config import Settings
from cardservice.db.database import Database
from cardservice.db.sql import Tx
from cardservice.migrations import upgrade_database
from cardservice.models.base import utcnow
from cardservice.observability.progress import Stages
from cardservice.security import CardCipher
from cardservice.transactions.repository import insert_transactions, transaction_row
from tests.fresh_database import create_database, drop_database

STATEMENT_LINES = 5_000
WAIT = 600  # an answer held up by a render is late, not lost: it counts with its delay


@dataclass
class Heavy:
    """Who asks for the heavy documents: the history's holder, and a holder with a month of
    `STATEMENT_LINES` movements."""

    history: DataSet
    statement: DataSet


async def _declined_history(db: Database, history: DataSet, count: int) -> None:
    """`count` declined authorizations over the past year on the holder's cards, without a
    fee: no money moved, so no journal entry (the ledger stays true). One row is written
    as the engine writes it (its event, its counters); the rest are copies of it by one
    INSERT … SELECT, so that a million rows load in minutes on a shared machine."""

    async def first(tx: Tx) -> uuid.UUID:
        row = transaction_row(
            user_uuid=uuid.UUID(str(await tx.value(
                "SELECT user_uuid FROM accounts WHERE uuid = $1", uuid.UUID(history.account)))),
            account_uuid=uuid.UUID(history.account), card_uuid=uuid.UUID(history.cards[0]),
            type="card_purchase", status="declined", direction="debit", amount=1234,
            currency="USD", fee=0, merchant_name="Bench Shop", error_slug="insufficient_funds",
            decision="rules", created_at=utcnow(), updated_at=utcnow(),
        )  # fmt: skip
        await insert_transactions(tx, [row])
        return uuid.UUID(str(row["uuid"]))

    template = await db.transact(first)
    moved = {
        "uuid": "gen_random_uuid()",
        "card_uuid": "($2::uuid[])[1 + g % array_length($2::uuid[], 1)]",
        "amount": "100 + g % 20000",
        "created_at": "t.created_at - g * interval '31 seconds'",
        "updated_at": "t.created_at - g * interval '31 seconds'",
    }
    columns = [column for column in TRANSACTION_COLUMNS]
    copied = ", ".join(moved.get(column, f"t.{column}") for column in columns)

    async def rest(tx: Tx) -> None:
        # the copies skip the row triggers (the outbox's events, the per-user counters):
        # the export reads these rows alone, and with them a million rows took hours here
        await tx.execute("SET LOCAL session_replication_role = replica")
        await tx.execute(
            f"INSERT INTO transactions ({', '.join(columns)}) SELECT {copied}"
            " FROM transactions t, generate_series(1, $3::int) g WHERE t.uuid = $1",
            template, [uuid.UUID(card) for card in history.cards], count - 1,
        )  # fmt: skip

    await db.transact(rest)


async def _heavy_data(url: str, transactions: int) -> Heavy:
    settings = Settings(database_url=url, encryption_key=KEY)
    db, cipher = runtime.database(settings), CardCipher([KEY.encode()])
    rng = random.Random(11)
    month_so_far = utcnow() - utcnow().replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    try:
        history = await _heavy_user(db, cipher, 100)
        statement = await _heavy_user(db, cipher, 10, "statement@bench.example")
        await _declined_history(db, history, transactions)
        with Stages() as bars:
            await _history(
                db, statement, STATEMENT_LINES, rng, bars.report, "statement month",
                span=max(month_so_far - timedelta(minutes=1), timedelta(seconds=1)),
            )  # fmt: skip
        return Heavy(history, statement)
    finally:
        await db.dispose()


async def _fetch(base: str, path: str, token: str) -> tuple[float, int]:
    """One heavy GET through curl into /dev/null: its seconds and bytes."""
    started = time.monotonic()
    process = await asyncio.create_subprocess_exec(
        "curl", "-sS", "-o", "/dev/null", "-w", "%{http_code} %{size_download}",
        "-H", f"Authorization: Bearer {token}", base + path,
        stdout=subprocess.PIPE,
    )  # fmt: skip
    out, _ = await process.communicate()
    status, size = out.decode().split()
    if status != "200":
        raise RuntimeError(f"GET {path} answered {status}")
    return time.monotonic() - started, int(size)


async def _heavy_round(base: str, heavy: Heavy, pdfs: int) -> dict[str, Any]:
    """PDFs, the whole history's CSV, PDFs: one at a time, back to back."""
    month = utcnow().strftime("%Y-%m")
    pdf_path = f"/account/{heavy.statement.account}/statements/{month}.pdf"
    pdf_seconds: list[float] = []
    for _ in range(pdfs):
        pdf_seconds.append((await _fetch(base, pdf_path, heavy.statement.token))[0])
    csv_seconds, csv_bytes = await _fetch(base, "/transaction/report.csv", heavy.history.token)
    for _ in range(pdfs):
        pdf_seconds.append((await _fetch(base, pdf_path, heavy.statement.token))[0])
    return {
        "pdf_seconds": [round(s, 2) for s in pdf_seconds],
        "csv_seconds": round(csv_seconds, 2),
        "csv_mb": round(csv_bytes / 1e6, 1),
    }


async def _busy(
    iso_port: int, base: str, cards: list[Any], heavy: Heavy, rate: float, pdfs: int
) -> tuple[list[float], dict[str, Any]]:
    """The ISO load for as long as one heavy round takes."""
    round_task = asyncio.create_task(_heavy_round(base, heavy, pdfs))
    latencies: list[float] = []
    while not round_task.done():  # slices, so that the load ends with the round
        latencies += await iso_load(iso_port, cards, 5, 4, 8, rate=rate, wait=WAIT)
    return latencies, await round_task


async def main(seconds: float, rate: float, transactions: int, pdfs: int) -> dict[str, Any]:
    url = await create_database(ADMIN_DSN, "cs_bench_isolation")
    http_port, iso_port = _free_port(), _free_port()
    server: subprocess.Popen[bytes] | None = None
    try:
        await upgrade_database(Settings(database_url=url).resolved_database_url)
        _by_card, cards = await _setup(url, 16)
        heavy = await _heavy_data(url, transactions)
        await _vacuum(url)
        with tempfile.TemporaryDirectory(prefix="cs-bench-isolation-") as var:
            env = {**os.environ, "CARDSERVICE_DATABASE_URL": url, "CARDSERVICE_ENCRYPTION_KEY": KEY,
                   "CARDSERVICE_VAR_DIR": var, "CARDSERVICE_RATE_LIMIT_PER_MINUTE": "10000000",
                   "CARDSERVICE_LOG_LEVEL": "WARNING"}  # fmt: skip
            server = _spawn([sys.executable, "-m", "cardservice", "serve", "--port",
                             str(http_port), "--iso8583-port", str(iso_port)], env)  # fmt: skip
            await _wait_port(iso_port, 600)  # a loaded machine starts a server slowly
            await _wait_port(http_port, 600)
            base = f"http://127.0.0.1:{http_port}"
            await iso_load(iso_port, cards, 2, 4, 8, rate=rate)  # warm the pools and caches
            quiet = await iso_load(iso_port, cards, seconds, 4, 8, rate=rate, wait=WAIT)
            busy, round_ = await _busy(iso_port, base, cards, heavy, rate, pdfs)
    finally:
        if server is not None:
            server.terminate()
            server.wait()
        await drop_database(ADMIN_DSN, url)
    quiet_p, busy_p = _percentiles(quiet), _percentiles(busy)
    return {
        "rate_per_s": rate, "transactions": transactions, "statement_lines": STATEMENT_LINES,
        "quiet": {"approved": len(quiet), **quiet_p},
        "busy": {"approved": len(busy), **busy_p, **round_},
        "p99_busy_vs_quiet": round(busy_p["p99_ms"] / quiet_p["p99_ms"], 2),
    }  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=20, help="the quiet phase")
    parser.add_argument("--rate", type=float, default=50, help="authorizations per second")
    parser.add_argument("--transactions", type=int, default=1_000_000, help="the CSV's rows")
    parser.add_argument("--pdfs", type=int, default=2, help="statement PDFs before and after")
    arguments = parser.parse_args()
    run = main(arguments.seconds, arguments.rate, arguments.transactions, arguments.pdfs)
    print(orjson.dumps(asyncio.run(run), option=orjson.OPT_INDENT_2).decode())
