"""Clearing files (docs/network.md#clearing-files): records per second ingesting a large IPM file,
and the peak RSS of the ingesting process against a file a tenth of its size (memory stays flat: the
file is streamed record by record).

For each database (a fresh PostgreSQL database, a fresh SQLite file): 64 funded cards over
`--accounts` accounts (16 by default, each its own user: a unit locks its card's account,
so the booking workers meet on one account only as often as a program's day would), a
share of the presentments with a held authorization to match (made through the engine, as
the ISO host's would be), the rest force posts, a few refunds; a file of `--small` records
is ingested, then one of `--records`, each by `cardservice clearing ingest FILE` in a
process of its own (wall time from start to exit, peak RSS from `wait4`).

    python -m bench.clearing                             # 100,000 and 10,000, both databases
    python -m bench.clearing --records 20000 --databases sqlite
    python -m bench.clearing --records 10000 --small 1000 --accounts 1    # one hot account
    python -m bench.clearing --records 20000 --databases postgresql --statements

`--statements`: PostgreSQL in a cluster of the run's own (`scripts/fleet/clusters.py`, a
temporary directory, a free port) with `pg_stat_statements` preloaded (`track = all`): each
ingest also prints the statements its clients sent a record (the top-level calls, `BEGIN`
and `COMMIT` included) and the heaviest statements (milliseconds in all, planned and
executed; a trigger's listed on its own).

The machine is shared: the figures are comparable within one run, not across runs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import asyncpg

from cardservice import runtime
from cardservice.acquirer.simulator import SimCard, make_cards
from cardservice.clearing.ipm import Presentment, write
from cardservice.config import Settings
from cardservice.db.database import Database
from cardservice.db.sql import Tx, text_uuid
from cardservice.migrations import upgrade_database
from cardservice.security import CardCipher
from cardservice.transactions.engine import Authorization, Presentation, authorize
from tests.fresh_database import create_database, database_name, drop_database

ADMIN_DSN = os.environ.get("CARDSERVICE_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test")
KEY = "hXo9m1GJZ0PgtDk0eJ1rV9yB0g3o4Zb8u0eHqXqvP1s="
CARDS = 64
# `--statements`: the cluster's settings beyond initdb's
# (the log names each statement a client sent: one line a simple query or Execute message)
STATEMENTS_CONF = """
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track = all
pg_stat_statements.track_planning = on
log_statement = 'all'
log_line_prefix = '%d '
"""
HEAVIEST = 12  # statements listed by `--statements`


async def _authorizations(
    db: Database, cipher: CardCipher, cards: list[SimCard], count: int
) -> list[tuple[SimCard, str]]:
    """`count` held authorizations spread over the cards, 200 per unit: (card, code)."""
    made: list[tuple[SimCard, str]] = []
    rows = await db.reader.rows("SELECT uuid, user_uuid FROM cards")
    users = {text_uuid(row["uuid"]): row["user_uuid"] for row in rows}

    async def unit(tx: Tx, batch: list[tuple[SimCard, str]]) -> None:
        for card, code in batch:
            network = {"stan": "000001", "rrn": None, "acquirer_id": "123456",
                       "terminal_id": None, "merchant_id": None, "auth_code": code}  # fmt: skip
            request = Authorization(
                uuid.UUID(card.uuid), 500, "USD", "Netflix",
                presentation=Presentation("iso8583", network),
            )  # fmt: skip
            await authorize(tx, cipher, users[card.uuid], request)

    for start in range(0, count, 200):
        batch = [
            (cards[i % len(cards)], f"B{i:05d}") for i in range(start, min(count, start + 200))
        ]
        await db.transact(lambda tx, batch=batch: unit(tx, batch))  # type: ignore[misc]
        made.extend(batch)
    return made


def _presentments(
    records: int, cards: list[SimCard], held: list[tuple[SimCard, str]]
) -> Iterator[Presentment]:
    """The held authorizations presented first (at 480 of 500), then force posts, one in
    fifty a refund."""
    for number in range(2, records + 2):
        index = number - 2
        if index < len(held):
            card, code = held[index]
            yield Presentment(number, card.pan, "000000", 480, "840", code, f"7{number:022d}")
            continue
        card = cards[index % len(cards)]
        refund = index % 50 == 0
        yield Presentment(
            number, card.pan, "200000" if refund else "000000", 300, "840", None,
            f"8{number:022d}", "MERCHANT0000001", "Netflix", "Los Gatos", "USA", "5815",
        )  # fmt: skip


def _ingest(env: dict[str, str], path: Path) -> tuple[float, float]:
    """Seconds and peak RSS (MiB) of `cardservice clearing ingest FILE`."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "cardservice", "clearing", "ingest", str(path)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    _pid, status, usage = os.wait4(process.pid, 0)
    took = time.perf_counter() - started
    if status != 0:
        raise RuntimeError(
            f"ingest failed: {process.stderr.read().decode() if process.stderr else ''}"
        )
    return took, usage.ru_maxrss / 1024


async def _prepare(
    url: str, records: list[int], share: float, folder: Path, accounts: int
) -> list[Path]:
    """Cards over `accounts` accounts (each its own user), authorizations and one file per
    size (each its own presentments)."""
    await upgrade_database(Settings(database_url=url).resolved_database_url)
    settings = Settings(database_url=url, encryption_key=KEY, var_dir=folder / "var")
    db, cipher = runtime.database(settings), CardCipher.from_settings(settings)
    paths = []
    try:
        cards = []
        for _ in range(accounts):
            _account, some = await make_cards(db, cipher, CARDS // accounts)
            cards.extend(some)
        for size in records:
            held = await _authorizations(db, cipher, cards, int(size * share))
            path = folder / f"clearing-{size}.ipm"
            with path.open("wb") as out:
                write(out, f"BENCH-{size}-{uuid.uuid4().hex[:8]}", _presentments(size, cards, held))
            paths.append(path)
    finally:
        await db.dispose()
    return paths


async def _statements(url: str, reset: bool) -> list[asyncpg.Record]:
    """The database's statements since the last reset (`pg_stat_statements`), then reset
    them when `reset`."""
    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch(
            "SELECT query, calls, toplevel, total_plan_time + total_exec_time AS ms"
            " FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid"
            " WHERE d.datname = current_database() AND query NOT LIKE '%pg_stat_statements%'"
            " ORDER BY ms DESC"
        )
        if reset:
            await connection.execute("SELECT pg_stat_statements_reset()")
    finally:
        await connection.close()
    return list(rows)


def _sent(log: Path, start: int, database: str) -> int:
    """How many statements clients sent to `database` since byte `start` of the cluster's
    log (`log_statement = all`; a deferred trigger's run at COMMIT is none of them)."""
    sent = 0
    with log.open("rb") as file:
        file.seek(start)
        for line in file:
            if line.startswith(f"{database} LOG:  ".encode()):
                sent += line.split(b"LOG:  ", 1)[1].startswith((b"statement: ", b"execute "))
    return sent


def _print_statements(size: int, sent: int, rows: list[asyncpg.Record]) -> None:
    """Statements sent a record, and the heaviest ones (µs a record)."""
    ms = sum(row["ms"] for row in rows if row["toplevel"])
    print(f"  {size} records: {sent / size:.3f} statements sent a record, "
          f"{1000 * ms / size:.0f} µs of the database's a record (planned + executed)")  # fmt: skip
    most = sorted((row for row in rows if row["toplevel"]), key=lambda row: -row["calls"])
    # (`toplevel` counts a deferred foreign key's or constraint trigger's checks at COMMIT)
    for title, listed in (("heaviest", rows[:HEAVIEST]), ("most sent", most[:HEAVIEST])):
        print(f"  {title}:")
        for row in listed:
            query = " ".join(str(row["query"]).split())
            where = "sent" if row["toplevel"] else "inner"
            print(f"  {1000 * row['ms'] / size:8.1f} µs/rec {row['calls'] / size:7.3f} calls/rec"
                  f" {where:<5} {query[:140]}")  # fmt: skip


def run(
    kind: str,
    records: list[int],
    share: float,
    accounts: int,
    admin: str | None = None,
    log: Path | None = None,
) -> list[tuple[int, float, float]]:
    """Each file ingested on a fresh database of `kind`: (records, seconds, peak RSS MiB).
    `admin`, `log`: a cluster of the run's own with `pg_stat_statements` and its log (the
    statements printed); else `ADMIN_DSN`'s."""
    admin = admin or ADMIN_DSN
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        if kind == "sqlite":
            url = f"sqlite:///{folder / 'clearing.db'}"
        else:
            url = asyncio.run(create_database(admin, "cs_bench_clearing"))
        try:
            paths = asyncio.run(_prepare(url, records, share, folder, accounts))
            env = {
                **os.environ, "CARDSERVICE_DATABASE_URL": url, "CARDSERVICE_ENCRYPTION_KEY": KEY,
                "CARDSERVICE_VAR_DIR": str(folder / "var"), "CARDSERVICE_LOG_LEVEL": "WARNING",
            }  # fmt: skip
            results = []
            for size, path in zip(records, paths, strict=True):
                if log is not None:
                    asyncio.run(_statements(url, reset=True))
                    start = log.stat().st_size
                results.append((size, *_ingest(env, path)))
                if log is not None:
                    sent = _sent(log, start, database_name(url))
                    _print_statements(size, sent, asyncio.run(_statements(url, reset=False)))
            return results
        finally:
            if kind != "sqlite":
                asyncio.run(drop_database(admin, url))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--matched", type=float, default=0.1, help="share with an authorization")
    parser.add_argument("--databases", default="postgresql,sqlite")
    parser.add_argument(
        "--accounts",
        type=int,
        default=16,
        choices=(1, 2, 4, 8, 16, 32, 64),
        help="the 64 cards spread over this many accounts (a unit locks its card's account:"
        " 1 puts every record in one line)",
    )
    parser.add_argument(
        "--statements",
        action="store_true",
        help="PostgreSQL in a cluster of its own with pg_stat_statements: statements a record",
    )
    args = parser.parse_args()
    if args.statements:
        return _with_statements(args)
    print("database    records  seconds  records/s  peak RSS MiB")
    for kind in args.databases.split(","):
        results = run(kind, [args.small, args.records], args.matched, args.accounts)
        for size, seconds, rss in results:
            print(f"{kind:<10} {size:>8} {seconds:>8.1f} {size / seconds:>10.0f} {rss:>13.1f}")
        (_s, _t, small_rss), (_l, _u, large_rss) = results
        print(
            f"{kind:<10} peak RSS {args.records} vs {args.small}: {large_rss / small_rss - 1:+.1%}"
        )
    return 0


def _with_statements(args: argparse.Namespace) -> int:
    """`main` on PostgreSQL alone, in a cluster of the run's own with `pg_stat_statements`.
    Imported here: what the process holds when it starts an ingest counts in the ingest's
    peak RSS (`fork` copies it before `exec`)."""
    from scripts.fleet import clusters

    if not clusters.available():
        print("bench.clearing: initdb or pg_ctl missing", file=sys.stderr)
        return 1
    with clusters.own_primary("bench-clearing", STATEMENTS_CONF) as cluster:
        cluster.psql("CREATE EXTENSION pg_stat_statements", "template1")
        print("database    records  seconds  records/s  peak RSS MiB")
        sizes = [args.small, args.records]
        admin = cluster.dsn("postgres")
        results = run("postgresql", sizes, args.matched, args.accounts, admin, cluster.log)
        for size, seconds, rss in results:
            print(f"postgresql {size:>8} {seconds:>8.1f} {size / seconds:>10.0f} {rss:>13.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
