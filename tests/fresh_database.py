"""A PostgreSQL database of its own for one run of a harness: made empty, dropped after.

`create_database(admin_dsn, prefix)` makes `<prefix>_<12 hex digits>` on the server of
`admin_dsn` (each harness passes its own: `CARDSERVICE_TEST_PG` for the tests and stress
runs, `CARDSERVICE_BENCH_PG` for most benchmarks) and returns its URL;
`drop_database(admin_dsn, url)` drops it WITH (FORCE), whoever is still connected. Both are
coroutines, called apart rather than as one context manager: a synchronous caller runs each
with `asyncio.run` (the suite's session fixture, `bench.clearing`), and `bench.run` makes its
databases in worker processes and drops them from the parent.

It lives in `tests/` because most of its callers do (the fixtures, the stress runs); the
benchmarks import it as they already import the stress runs' harness. The import contracts
(`[tool.importlinter]`) cover the `cardservice` package only, and nothing here is of it.
"""

from __future__ import annotations

import uuid

import asyncpg


def database_name(url: str) -> str:
    """The database of a URL made by `create_database` (its last path segment)."""
    return url.rsplit("/", 1)[1]


async def _admin(admin_dsn: str, sql: str) -> None:
    connection = await asyncpg.connect(admin_dsn)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


async def create_database(admin_dsn: str, prefix: str) -> str:
    """A new empty database named `<prefix>_<12 hex digits>` beside `admin_dsn`'s; its URL."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    await _admin(admin_dsn, f'CREATE DATABASE "{name}"')
    return admin_dsn.rsplit("/", 1)[0] + "/" + name


async def drop_database(admin_dsn: str, url: str) -> None:
    """Drop the database of `url`, closing its connections; nothing if it is gone already."""
    await _admin(admin_dsn, f'DROP DATABASE IF EXISTS "{database_name(url)}" WITH (FORCE)')
