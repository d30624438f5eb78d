"""How long an SQLite write holds the one writer, and what of that is SQL.

    python -m bench.writer_turn                      # authorizations and purchases, 2,000 each

SQLite has one writer, so a write endpoint's ceiling is one writer-turn per unit of time:
whatever the service does while it holds the turn — the statements, and the Python between
them — caps its writes at `1 / turn`. The bare `sqlite3` loop (`bench.peer.sqlite_unit`,
the baseline `bench.run` compares SQLite writes with) holds it for the same unit's
statements alone. This measures, in process and one request at a time (no waiting):

* `turn_ms`: the service's hold of the writer per request (`SQLiteWriter.unit`: BEGIN …
  the unit's work and its events … COMMIT; the turn's file lock is free here);
* `sql_ms` and `statements`: of that, the time inside the unit's statements
  (`sql._sqlite_rows`: execute + fetch) and how many there were;
* `loop_ms` and `loop_sql_ms`: the loop's whole unit and its statements, the same way;
* `ceiling`: `loop_ms / turn_ms`, the best service ÷ loop ratio one writer allows.

Wall time (the writer is held in wall time), sequential, so the figures hold on a quiet
machine; they are not throughput.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import httpx

from bench import peer
from bench.dataset import DataSet, Holder, build
from bench.profile import in_process_settings
from bench.run import KEY
from cardservice.app import create_app
from cardservice.config import Settings
from cardservice.db import sql
from cardservice.db.database import Database
from cardservice.migrations import upgrade_database
from cardservice.security import CardCipher


class Clock:
    """Time inside the writer's turn, and inside statements while the turn is held."""

    def __init__(self) -> None:
        self.turns = self.turn_s = self.sql_s = 0.0
        self.statements = 0
        self.held = False

    def reset(self) -> None:
        self.turns = self.turn_s = self.sql_s = 0.0
        self.statements = 0

    def timed_rows(self, run: Callable[..., list[Any]]) -> Callable[..., list[Any]]:
        def rows(connection: sqlite3.Connection, statement: str, args: tuple[Any, ...]) -> Any:
            if not self.held:
                return run(connection, statement, args)
            started = time.perf_counter()
            try:
                return run(connection, statement, args)
            finally:
                self.sql_s += time.perf_counter() - started
                self.statements += 1

        return rows

    def timed_unit(self, unit: Callable[[str], Any]) -> Callable[[str], Any]:
        @asynccontextmanager
        async def held(key: str) -> AsyncIterator[Any]:
            started = time.perf_counter()
            self.held = True
            try:
                async with unit(key) as tx:
                    yield tx
            finally:
                self.held = False
                self.turn_s += time.perf_counter() - started
                self.turns += 1

        return held


@contextmanager
def _timed_statements(clock: Clock) -> Iterator[None]:
    """`sql._sqlite_rows` timed while the clock says the writer is held."""
    original = sql._sqlite_rows
    sql._sqlite_rows = clock.timed_rows(original)
    try:
        yield
    finally:
        sql._sqlite_rows = original


def _bodies(data: DataSet, holder: Holder) -> dict[str, dict[str, Any]]:
    """The request body of each write, by path, as `holder` (the loop takes the same)."""
    return {
        "/sandbox/authorizations": {
            "card_uuid": holder.card,
            "amount": 1,
            "currency": "USD",
            "merchant_name": "B",
        },
        "/card/buy": {
            "account_uuid": holder.account,
            "bin_uuid": data.bin_uuid,
            "start_balance": 1,
        },
    }


async def _service(
    url: str, data: DataSet, requests: int, clock: Clock
) -> dict[str, dict[str, float]]:
    # the embedded worker's units (deliveries, hold expiry) are not the request's
    settings = in_process_settings(url, embedded_worker=False)
    app = create_app(settings)
    db: Database = app.state.db
    assert db._writer is not None
    db._writer.unit = clock.timed_unit(db._writer.unit)  # type: ignore[method-assign]
    holder = data.holders[0]
    calls = {f"POST {path}": (path, body) for path, body in _bodies(data, holder).items()}
    figures: dict[str, dict[str, float]] = {}
    headers = {"Authorization": f"Bearer {holder.token}"}
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://b") as client,
    ):
        for label, (path, body) in calls.items():
            for warm in (True, False):
                clock.reset()
                for _ in range(20 if warm else requests):
                    response = await client.post(path, json=body, headers=headers)
                    if response.status_code >= 300:
                        raise RuntimeError(f"{label}: {response.status_code} {response.text}")
            figures[label] = {
                "turn_ms": clock.turn_s / clock.turns * 1000,
                "sql_ms": clock.sql_s / clock.turns * 1000,
                "statements": clock.statements / clock.turns,
            }
    return figures


def _loop(path: str, data: DataSet, requests: int) -> dict[str, dict[str, float]]:
    """The same units through `bench.peer.sqlite_unit`, statements timed the same way."""
    connection = peer.loop_connection(path)
    holder = data.holders[1]
    bodies = _bodies(data, holder)
    units = {
        "POST /sandbox/authorizations": (peer._authorize, bodies["/sandbox/authorizations"]),
        "POST /card/buy": (peer._buy, bodies["/card/buy"]),
    }
    statement_s, statements = 0.0, 0
    original = peer._SQLiteUnit.row, peer._SQLiteUnit.execute

    def timed(method: Callable[..., Any]) -> Callable[..., Any]:
        async def call(self: Any, statement: str, *args: Any) -> Any:
            nonlocal statement_s, statements
            started = time.perf_counter()
            try:
                return await method(self, statement, *args)
            finally:
                statement_s += time.perf_counter() - started
                statements += 1

        return call

    peer._SQLiteUnit.row, peer._SQLiteUnit.execute = timed(original[0]), timed(original[1])  # type: ignore[method-assign]
    figures: dict[str, dict[str, float]] = {}
    try:
        for label, (work, body) in units.items():
            for warm in (True, False):
                statement_s, statements = 0.0, 0
                count = 20 if warm else requests
                started = time.perf_counter()
                for _ in range(count):
                    if peer.sqlite_unit(connection, work, holder.token, body) is None:
                        raise RuntimeError(f"{label}: the loop's unit was refused")
                elapsed = time.perf_counter() - started
            figures[label] = {
                "loop_ms": elapsed / count * 1000,
                "loop_sql_ms": statement_s / count * 1000,
                "loop_statements": statements / count,
            }
    finally:
        peer._SQLiteUnit.row, peer._SQLiteUnit.execute = original  # type: ignore[method-assign]
        connection.close()
    return figures


async def run(requests: int) -> None:
    path = f"{tempfile.mkdtemp(prefix='cs_turn_')}/turn.db"
    url = f"sqlite:///{path}"
    settings = Settings(database_url=url, encryption_key=KEY)
    await upgrade_database(settings.resolved_database_url)
    db = Database(settings)
    data = await build(
        db, CardCipher.from_settings(settings), cards=10, transactions=10_000, users=4
    )
    await db.dispose()
    clock = Clock()
    with _timed_statements(clock):
        service = await _service(url, data, requests, clock)
    loop = _loop(path, data, requests)
    for label, figures in service.items():
        both = figures | loop[label]
        both["ceiling"] = both["loop_ms"] / both["turn_ms"]
        print(json.dumps({"endpoint": label} | {k: round(v, 3) for k, v in both.items()}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()
    asyncio.run(run(args.requests))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
