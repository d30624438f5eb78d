"""SQLite's write endpoints at peak against the bare loops of their units, per worker count.

    python -m bench.sqlite_writes                   # 1 and 2 workers, 8 s per run
    python -m bench.sqlite_writes --workers 2 --seconds 15

A small data set (100 cards, 10,000 transactions, 200 holders), then the authorization's and
the purchase's units in a bare `sqlite3` loop (`bench.run.sqlite_write_tps`), then
`cardservice serve --workers N` with `wrk` (64 connections) on `POST /sandbox/authorizations`
and `POST /card/buy`, the holders' requests rotated as in `bench.run`. What
docs/performance.md "SQLite: units back to back" compares: how the one writer is shared
between a process's requests and between processes.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from bench.dataset import DataSet, build
from bench.run import KEY, Server, endpoints, sqlite_write_tps, wrk
from cardservice.config import Settings
from cardservice.db.database import Database
from cardservice.events import outbox
from cardservice.migrations import upgrade_database
from cardservice.security import CardCipher

WRITES = ("POST /sandbox/authorizations", "POST /card/buy")


async def _data_set(url: str) -> DataSet:
    settings = Settings(database_url=url, encryption_key=KEY)
    await upgrade_database(settings.resolved_database_url)
    outbox.register()
    db = Database(settings)
    try:
        cipher = CardCipher.from_settings(settings)
        return await build(db, cipher, cards=100, transactions=10_000, users=200)
    finally:
        await db.dispose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--workers", default="1,2", help="worker counts, comma-separated")
    parser.add_argument("--seconds", type=int, default=8)
    args = parser.parse_args()
    url = f"sqlite:///{tempfile.mkdtemp(prefix='cs_writes_')}/writes.db"
    data = asyncio.run(_data_set(url))
    loops = sqlite_write_tps(url, data, args.seconds)
    print("bare sqlite3 loops: " + ", ".join(f"{k} {v:.0f}/s" for k, v in loops.items()))
    targets = {t.label: t for t in endpoints(data, 50, data.transactions[0])}
    for workers in (int(n) for n in args.workers.split(",")):
        with tempfile.TemporaryDirectory() as workdir, Server(url, Path(workdir), workers) as s:
            for label in WRITES:
                target = targets[label]
                rps, p50, p99, errors = wrk(s.base + target.path, args.seconds, target)
                print(
                    f"{workers} worker(s)  {label:<30} {rps:7.0f}/s  p50 {p50:6.1f} ms"
                    f"  p99 {p99:6.1f} ms  errors {errors}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
