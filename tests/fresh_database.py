"""A PostgreSQL database of its own for one run of a harness: made empty or migrated, dropped
after.

`create_database(admin_dsn, prefix)` makes `<prefix>_<12 hex digits>` on the server of
`admin_dsn` (each harness passes its own: `CARDSERVICE_TEST_PG` for the tests and stress
runs, `CARDSERVICE_BENCH_PG` for most benchmarks) and returns its URL;
`drop_database(admin_dsn, url)` drops it WITH (FORCE), whoever is still connected. Both are
coroutines, called apart rather than as one context manager: a synchronous caller runs each
with `asyncio.run` (the suite's session fixture, `bench.clearing`), and `bench.run` makes its
databases in worker processes and drops them from the parent.

`create_migrated_database(admin_dsn, prefix)` makes one at the newest schema. Running the
~50 migrations takes 5-13 s on a loaded machine (most of it PostgreSQL's own work), so within
a pytest run (tests/conftest.py names the run's template in `TEMPLATE_ENV`, for every xdist
worker) the migrations run once, into the template, and each database is a copy of it
(`CREATE DATABASE … TEMPLATE`, ~0.1 s); the run's end drops the template
(`drop_template`). Outside a run (`python -m tests.stress.bank_run`) it migrates the new
database itself. Tests of the migrations themselves (tests/ledger/test_chain_migration.py)
make an empty database and migrate it.

It lives in `tests/` because most of its callers do (the fixtures, the stress runs); the
benchmarks import it as they already import the stress runs' harness. The import contracts
(`[tool.importlinter]`) cover the `cardservice` package only, and nothing here is of it.
"""

from __future__ import annotations

import os
import uuid

import asyncpg

from cardservice.config import Settings
from cardservice.migrations import upgrade_database

# the run's template database, named by the run (tests/conftest.py), absent outside pytest
TEMPLATE_ENV = "CARDSERVICE_TEST_PG_TEMPLATE"


def database_name(url: str) -> str:
    """The database of a URL made by `create_database` (its last path segment)."""
    return url.rsplit("/", 1)[1]


def _url(admin_dsn: str, name: str) -> str:
    return admin_dsn.rsplit("/", 1)[0] + "/" + name


async def _admin(admin_dsn: str, sql: str) -> None:
    connection = await asyncpg.connect(admin_dsn)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


async def _migrate(url: str) -> None:
    await upgrade_database(Settings(database_url=url).resolved_database_url)


async def create_database(admin_dsn: str, prefix: str) -> str:
    """A new empty database named `<prefix>_<12 hex digits>` beside `admin_dsn`'s; its URL."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    await _admin(admin_dsn, f'CREATE DATABASE "{name}"')
    return _url(admin_dsn, name)


async def create_migrated_database(admin_dsn: str, prefix: str) -> str:
    """A new database like `create_database`'s, migrated to the newest schema: a copy of the
    run's template (made by the first caller of the run, under an advisory lock the others
    wait on), or, outside a pytest run, migrated itself."""
    template = os.environ.get(TEMPLATE_ENV)
    if not template:
        url = await create_database(admin_dsn, prefix)
        try:
            await _migrate(url)
        except BaseException:
            await drop_database(admin_dsn, url)
            raise
        return url
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    connection = await asyncpg.connect(admin_dsn)
    try:
        # held to the connection's end: the template is made once, and a copy is never taken
        # while another worker's copy or the migrations hold it
        await connection.execute("SELECT pg_advisory_lock(hashtext($1))", template)
        if not await connection.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", template):
            # migrated under another name and renamed when done: a template that exists is
            # whole, even after a worker died while making it
            making = f"{template}_making"
            await connection.execute(f'DROP DATABASE IF EXISTS "{making}" WITH (FORCE)')
            await connection.execute(f'CREATE DATABASE "{making}"')
            await _migrate(_url(admin_dsn, making))
            await connection.execute(f'ALTER DATABASE "{making}" RENAME TO "{template}"')
        await connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    finally:
        await connection.close()
    return _url(admin_dsn, name)


async def drop_template(admin_dsn: str, template: str) -> None:
    """Drop a run's template (and a half-made one), whether it was made or not."""
    for name in (template, f"{template}_making"):
        await _admin(admin_dsn, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def drop_database(admin_dsn: str, url: str) -> None:
    """Drop the database of `url`, closing its connections; nothing if it is gone already."""
    await _admin(admin_dsn, f'DROP DATABASE IF EXISTS "{database_name(url)}" WITH (FORCE)')
