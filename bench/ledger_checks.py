"""What the ledger's database rules cost an entry, inside PostgreSQL, before and after a
migration: `python -m bench.ledger_checks --before 20261127_48 [--entries 2000] [--rounds 5]`.

Two databases, one migrated to head and one only up to `--before`, each with one funded
card (`acquirer.simulator.make_cards`). In each, a server-side loop (`DO`, no client round
trip) writes `--entries` entries as the service writes an authorization's on PostgreSQL: one
statement of data-modifying CTEs, three postings (the card's and two books') then the entry
that reads them (`ledger.entries`), so every rule and key of the postings and the entry runs
as it does in a unit; the loop rolls back. The two databases take turns, each round in the
other order; µs an entry (median over the rounds) and after ÷ before.

    CARDSERVICE_BENCH_PG=postgresql://postgres@127.0.0.1:5499/postgres \\
        python -m bench.ledger_checks --before 20261127_48
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import time
from typing import Any

import asyncpg
import orjson

from bench.iso import ADMIN_DSN, KEY
from cardservice import runtime
from cardservice.acquirer.simulator import make_cards
from cardservice.config import Settings
from cardservice.migrations import upgrade_database
from cardservice.security import CardCipher
from tests.fresh_database import create_database, drop_database

_LOOP = """
DO $$
DECLARE
    card uuid := '{card}';
    first bigint;
BEGIN
    FOR i IN 1..{entries} LOOP
        WITH e AS (SELECT nextval(pg_get_serial_sequence('journal_entries', 'id')) AS id),
        p AS (INSERT INTO postings (entry_id, account_uuid, card_uuid, system_book, currency,
                                    amount)
              SELECT e.id, NULL, v.card, v.book, 'USD', v.amount
              FROM e, (VALUES (card, NULL, -100), (NULL, 'fees', 10),
                              (NULL, 'cardholder_receivables', 90)) AS v(card, book, amount)
              RETURNING 1)
        INSERT INTO journal_entries (id, kind, reference, created_at)
        SELECT e.id, 'card_purchase', gen_random_uuid(), clock_timestamp() FROM e
        WHERE (SELECT count(*) FROM p) = 3;
    END LOOP;
    RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'rolled back';
END $$"""


async def _database(revision: str) -> tuple[str, str]:
    url = await create_database(ADMIN_DSN, "cs_bench_ledger")
    await upgrade_database(Settings(database_url=url).resolved_database_url, revision)
    db = runtime.database(Settings(database_url=url, encryption_key=KEY))
    try:
        _account, cards = await make_cards(db, CardCipher([KEY.encode()]), 1)
    finally:
        await db.dispose()
    return url, str(cards[0].uuid)


async def _loop(url: str, card: str, entries: int) -> float:
    """µs an entry of one loop of `entries`."""
    connection = await asyncpg.connect(url)
    with contextlib.suppress(asyncpg.RaiseError):  # plans, functions
        await connection.execute(_LOOP.format(card=card, entries=10))
    started = time.perf_counter()
    try:
        await connection.execute(_LOOP.format(card=card, entries=entries))
    except asyncpg.RaiseError:
        pass
    finally:
        await connection.close()
    return (time.perf_counter() - started) * 1e6 / entries


async def main(before: str, entries: int, rounds: int) -> dict[str, Any]:
    databases = {"head": await _database("head"), before: await _database(before)}
    took: dict[str, list[float]] = {name: [] for name in databases}
    try:
        for turn in range(rounds):
            for name in list(databases) if turn % 2 == 0 else list(reversed(databases)):
                took[name].append(await _loop(*databases[name], entries))
    finally:
        for url, _card in databases.values():
            await drop_database(ADMIN_DSN, url)
    head, old = (statistics.median(took[name]) for name in ("head", before))
    return {
        "entries_a_loop": entries, "rounds": rounds, "load_average": os.getloadavg(),
        "us_an_entry": {name: round(statistics.median(t), 1) for name, t in took.items()},
        "rounds_us_an_entry": {name: [round(x, 1) for x in t] for name, t in took.items()},
        "head_vs_before": round(head / old, 3),
    }  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", required=True, metavar="REVISION")
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    arguments = parser.parse_args()
    run = main(arguments.before, arguments.entries, arguments.rounds)
    print(orjson.dumps(asyncio.run(run), option=orjson.OPT_INDENT_2).decode())
