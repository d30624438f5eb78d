"""Balances at an instant at depth: 1 M postings on a fresh database, then the books'
class balances, one card's and one account's balance as of instants across the year, the
settlement report of a day, against the one query that sums the whole journal instead; and
`ledger verify` over it all.

    python -m bench.asof                        # PostgreSQL (CARDSERVICE_TEST_PG), 1 M postings
    python -m bench.asof --database sqlite
    python -m bench.asof --transactions 20000   # smaller, quicker

The data set is `bench.dataset`'s (settled purchases spread over a year, three postings
each, plus the cards' issue), chained and added up by day as the service does.
docs/performance.md ("Balances at an instant") keeps the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import asyncpg

from bench.dataset import build
from cardservice.config import Settings
from cardservice.db.database import Database
from cardservice.db.sql import Reader
from cardservice.ledger import books
from cardservice.ledger.verify import verify
from cardservice.migrations import upgrade_database
from cardservice.models.base import utcnow
from cardservice.security import CardCipher, generate_key

ADMIN = os.environ.get("CARDSERVICE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
# The whole journal summed per class: what an as-of query costs without the day totals.
FULL_SCAN = """
SELECT CASE WHEN p.account_uuid IS NOT NULL THEN 'account'
            WHEN p.card_uuid IS NOT NULL THEN 'card' ELSE p.system_book END, p.currency,
       sum(p.amount)
FROM postings p JOIN journal_entries e ON e.id = p.entry_id WHERE e.created_at <= $1
GROUP BY 1, 2"""


async def _median(work: Callable[[], Awaitable[Any]], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        await work()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


async def _measure(reader: Reader, runs: int) -> None:
    postings = int(await reader.value("SELECT count(*) FROM postings"))
    entries = int(await reader.value("SELECT count(*) FROM journal_entries"))
    card = await reader.value(
        "SELECT card_uuid FROM postings WHERE card_uuid IS NOT NULL"
        " GROUP BY card_uuid ORDER BY count(*) DESC LIMIT 1"
    )
    card_postings = int(
        await reader.value("SELECT count(*) FROM postings WHERE card_uuid = $1", card)
    )
    account = await reader.value("SELECT account_uuid FROM cards WHERE uuid = $1", card)
    print(f"{postings:,} postings, {entries:,} entries; the deepest card has {card_postings:,}")
    now = utcnow()
    for label, instant in (
        ("now", now),
        ("6 months ago", now - timedelta(days=182, hours=5)),
        ("364 days ago", now - timedelta(days=364, hours=3)),
    ):
        classes = await _median(lambda i=instant: books.class_balances(reader, i), runs)
        one_card = await _median(lambda i=instant: books.card_balance_as_of(reader, card, i), runs)
        one_account = await _median(
            lambda i=instant: books.account_balance_as_of(reader, account, i), runs
        )
        full = await _median(lambda i=instant: reader.rows(FULL_SCAN, i), 3)
        print(
            f"as of {label}: class balances {classes:.2f} ms, the deepest card {one_card:.2f} ms,"
            f" its account {one_account:.2f} ms (median of {runs});"
            f" the whole journal summed instead {full:.0f} ms"
        )
    day = (now - timedelta(days=100)).date()
    report = await _median(lambda: books.settlement_report(reader, day), runs)
    print(f"settlement report of one day: {report:.2f} ms (median of {runs})")
    started = time.perf_counter()
    verdict = await verify(reader)
    took = time.perf_counter() - started
    print(f"ledger verify: {verdict.problem or f'ok {verdict.entries} entries'} in {took:.1f} s")


async def main(database: str, transactions: int, runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        name = f"cs_asof_{uuid.uuid4().hex[:10]}"
        if database == "sqlite":
            url = f"sqlite:///{tmp}/asof.db"
        else:
            admin = await asyncpg.connect(ADMIN)
            await admin.execute(f'CREATE DATABASE "{name}"')
            url = ADMIN.rsplit("/", 1)[0] + "/" + name
        try:
            settings = Settings(database_url=url, var_dir=Path(tmp), log_level="WARNING")
            await upgrade_database(settings.resolved_database_url)
            db = Database(settings)
            try:
                started = time.perf_counter()
                await build(
                    db, CardCipher([generate_key().encode()]), cards=100,
                    transactions=transactions, users=5,
                )  # fmt: skip
                print(f"loaded in {time.perf_counter() - started:.0f} s ({database})")
                if database != "sqlite":
                    await db.reader.value("SELECT 1")
                    pool = await db._pool.pool()  # type: ignore[union-attr]
                    await pool.execute("VACUUM ANALYZE")
                await _measure(db.reader, runs)
            finally:
                await db.dispose()
        finally:
            if database != "sqlite":
                await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                await admin.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument("--transactions", type=int, default=333_334)  # 3 postings each
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(main(args.database, args.transactions, args.runs))
