"""Plain SQL reads on the driver itself, for the hot read paths.

The ORM costs 0.3–1 ms of CPU per statement (measured: `python -m bench.profile`), which is
most of a read request. The endpoints that every client polls — authentication, card and
account lists, the transaction report, one transaction, the summary — read through this
module instead: hand-written SQL, one statement where one will do, rows straight from the
driver. The hot writes (a purchase, an authorization, and the ledger's `post_entry` under
every money movement) run the same way on a `Tx`: `db.transaction()` opens one on the driver,
`session_tx(session)` runs the same statements inside an ORM unit of work. Rare reads and
writes keep the ORM (`db.write()` / `db.read()`).

One SQL text serves both databases: placeholders are written `$1, $2, …` (PostgreSQL's) and
become SQLite's numbered `?1, ?2, …`. Parameters are converted to what each database stores
(SQLite: uuid → 32 hex digits, datetime → `YYYY-MM-DD HH:MM:SS.ffffff` UTC, bool → 0/1, as
SQLAlchemy stores them); values read back go through `text_uuid`, `iso_z` and `flag`.

* PostgreSQL: an asyncpg pool of its own (prepared statements are cached per connection).
* SQLite: reads run inline on the event loop thread, each on a connection of a small pool
  opened `query_only`. An indexed read takes microseconds, less than the hop to a driver
  thread would cost; WAL lets them run beside the writer without waiting. Write units run
  inline too, on one connection per process, once the process holds the writer's turn
  (`db.Database.transaction`): SQLite has one writer, so nothing could run beside it anyway.
  `FOR UPDATE` clauses are dropped for SQLite: `BEGIN IMMEDIATE` already holds the database.
"""

from __future__ import annotations

import functools
import re
import sqlite3
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, date, datetime
from typing import Any, Protocol

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy import TextClause, text
from sqlalchemy.ext.asyncio import AsyncSession


class Row(Protocol):
    """A result row: by column name or position (asyncpg's Record, sqlite3.Row)."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...  # the values, in column order


_PLACEHOLDER = re.compile(r"\$(\d+)")
_FOR_UPDATE = re.compile(r"\s+FOR UPDATE(\s+OF\s+\w+(\s*,\s*\w+)*)?\s*$")
SQLITE_READ_BUSY_TIMEOUT_MS = 5_000
SQLITE_WRITE_BUSY_TIMEOUT_MS = 30_000

# What a unique (or other integrity) constraint raises on each driver.
INTEGRITY_ERRORS: tuple[type[Exception], ...] = (
    asyncpg.IntegrityConstraintViolationError,
    sqlite3.IntegrityError,
)


class Reader(Protocol):
    async def rows(self, sql: str, *args: Any) -> Sequence[Row]: ...

    async def row(self, sql: str, *args: Any) -> Row | None: ...

    async def value(self, sql: str, *args: Any) -> Any: ...

    async def close(self) -> None: ...


def text_uuid(value: Any) -> str | None:
    """A uuid column as `8-4-4-4-12` text (SQLite keeps 32 hex digits, asyncpg a UUID)."""
    if value is None:
        return None
    if isinstance(value, str):
        if len(value) == 32:
            return f"{value[:8]}-{value[8:12]}-{value[12:16]}-{value[16:20]}-{value[20:]}"
        return value
    return str(value)


def as_uuid(value: Any) -> uuid.UUID | None:
    """A uuid column as a `uuid.UUID`."""
    if value is None or isinstance(value, uuid.UUID):
        return value
    return uuid.UUID(value)


def iso_z(value: Any) -> str | datetime | None:
    """A timestamp column for the JSON encoder, which writes `YYYY-MM-DDTHH:MM:SSZ`."""
    if isinstance(value, str):  # SQLite: "YYYY-MM-DD HH:MM:SS[.ffffff]", already UTC
        return f"{value[:10]}T{value[11:19]}Z"
    stamp: datetime | None = value  # asyncpg: an aware datetime, rendered by orjson (UTC, Z)
    return stamp


def as_datetime(value: Any) -> datetime | None:
    """A timestamp column as an aware UTC datetime."""
    if value is None:
        return None
    if isinstance(value, str):
        return datetime.fromisoformat(value).replace(tzinfo=UTC)
    stamp: datetime = value.astimezone(UTC)
    return stamp


def flag(value: Any) -> bool:
    """A boolean column (SQLite keeps 0/1)."""
    return bool(value)


async def _nothing_to_reset(_connection: asyncpg.Connection) -> None:
    """Reads change no session state: skip asyncpg's reset query (a round trip per release).
    An open transaction is still rolled back by asyncpg itself."""


class Tx(Protocol):
    """The statements of one write unit, `$n` SQL as for `Reader`. Rows are read by column
    name only (`row["balance"]`): the ORM-session flavour hands out mappings."""

    key: str  # the database, for what a process caches per database

    async def rows(self, sql: str, *args: Any) -> Sequence[Row]: ...

    async def row(self, sql: str, *args: Any) -> Row | None: ...

    async def value(self, sql: str, *args: Any) -> Any: ...

    async def execute(self, sql: str, *args: Any) -> None: ...


@functools.lru_cache(maxsize=512)
def insert_sql(table: str, columns: tuple[str, ...], rows: int = 1, suffix: str = "") -> str:
    """`INSERT INTO table (columns) VALUES ($1, …), (…) suffix` for `rows` rows; its
    arguments are the rows' values one row after the other (`row_args`)."""
    width = len(columns)
    values = ", ".join(
        "(" + ", ".join(f"${r * width + c + 1}" for c in range(width)) + ")" for r in range(rows)
    )
    names = ", ".join(columns)
    return f"INSERT INTO {table} ({names}) VALUES {values}{suffix}"  # noqa: S608 - our names


def row_args(columns: Sequence[str], rows: Sequence[dict[str, Any]]) -> list[Any]:
    """The arguments of `insert_sql(…, columns, len(rows))`."""
    return [row[column] for row in rows for column in columns]


class PostgresTx:
    """A write unit on an asyncpg connection inside its transaction."""

    def __init__(self, connection: asyncpg.Connection, key: str) -> None:
        self._connection, self.key = connection, key

    async def rows(self, sql: str, *args: Any) -> Sequence[Row]:
        return await self._connection.fetch(sql, *args)  # type: ignore[no-any-return]

    async def row(self, sql: str, *args: Any) -> Row | None:
        return await self._connection.fetchrow(sql, *args)  # type: ignore[no-any-return]

    async def value(self, sql: str, *args: Any) -> Any:
        return await self._connection.fetchval(sql, *args)

    async def execute(self, sql: str, *args: Any) -> None:
        await self._connection.execute(sql, *args)


@functools.lru_cache(maxsize=512)
def sqlite_sql(sql: str) -> str:
    """A `$n` statement as SQLite takes it: `?n` placeholders, no `FOR UPDATE`."""
    return _PLACEHOLDER.sub(r"?\1", _FOR_UPDATE.sub("", sql))


def _sqlite_rows(connection: sqlite3.Connection, sql: str, args: tuple[Any, ...]) -> list[Any]:
    """Run a `$n` statement on an SQLite connection; all its rows."""
    return connection.execute(sqlite_sql(sql), [_sqlite_param(a) for a in args]).fetchall()


class _InlineSQLite:
    """Statements on the embedded database run inline: `_run` gives all the rows."""

    def _run(self, sql: str, args: tuple[Any, ...]) -> list[sqlite3.Row]:
        raise NotImplementedError

    async def rows(self, sql: str, *args: Any) -> Sequence[Row]:
        return self._run(sql, args)

    async def row(self, sql: str, *args: Any) -> Row | None:
        found = self._run(sql, args)
        return found[0] if found else None

    async def value(self, sql: str, *args: Any) -> Any:
        found = self._run(sql, args)
        return found[0][0] if found else None


class SQLiteTx(_InlineSQLite):
    """A write unit on the embedded database, inline (the process holds the writer's turn)."""

    def __init__(self, connection: sqlite3.Connection, key: str) -> None:
        self._connection, self.key = connection, key

    def _run(self, sql: str, args: tuple[Any, ...]) -> list[sqlite3.Row]:
        return _sqlite_rows(self._connection, sql, args)

    async def execute(self, sql: str, *args: Any) -> None:
        self._run(sql, args)


@functools.lru_cache(maxsize=512)
def _session_text(sql: str, sqlite: bool) -> TextClause:
    """A `$n` statement as an SQLAlchemy text clause with binds `:p1, :p2, …`."""
    if sqlite:
        sql = _FOR_UPDATE.sub("", sql)
    return text(_PLACEHOLDER.sub(r":p\1", sql))


class SessionTx:
    """The same statements inside an ORM unit of work (`db.write()`), for the rare paths
    (deposits, refunds, the demo and bench loaders) that also move money."""

    def __init__(self, session: AsyncSession) -> None:
        bind = session.get_bind()
        self._session = session
        self._sqlite = bind.dialect.name == "sqlite"
        self.key = str(bind.engine.url)

    async def _run(self, sql: str, args: tuple[Any, ...]) -> Any:
        convert = _sqlite_param if self._sqlite else _same
        params = {f"p{i}": convert(arg) for i, arg in enumerate(args, 1)}
        return await self._session.execute(_session_text(sql, self._sqlite), params)

    async def rows(self, sql: str, *args: Any) -> Sequence[Row]:
        return list((await self._run(sql, args)).mappings())

    async def row(self, sql: str, *args: Any) -> Row | None:
        return (await self._run(sql, args)).mappings().first()  # type: ignore[no-any-return]

    async def value(self, sql: str, *args: Any) -> Any:
        return (await self._run(sql, args)).scalar()

    async def execute(self, sql: str, *args: Any) -> None:
        await self._run(sql, args)


async def session_tx(session: AsyncSession) -> Tx:
    """A `Tx` on an ORM write session; what the session holds pending is flushed first, so
    the statements see it."""
    await session.flush()
    return SessionTx(session)


def _same(value: Any) -> Any:
    return value


class PostgresReader:
    """Reads on an asyncpg pool of their own, opened on first use."""

    def __init__(self, dsn: str, max_size: int) -> None:
        self._dsn, self._max_size = dsn, max_size
        self._pool: asyncpg.Pool | None = None

    @asynccontextmanager
    async def transaction(self, key: str) -> AsyncIterator[Tx]:
        """A write unit on a connection of this pool: commits when the block ends, rolls
        back on any error."""
        pool = self._pool or await self._get_pool()
        async with pool.acquire() as connection, connection.transaction():
            yield PostgresTx(connection, key)

    async def _get_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            pool = await asyncpg.create_pool(
                self._dsn, min_size=1, max_size=self._max_size, reset=_nothing_to_reset
            )
            if self._pool is None:
                self._pool = pool
            else:  # another request opened one meanwhile
                await pool.close()
        return self._pool

    async def rows(self, sql: str, *args: Any) -> Sequence[Row]:
        pool = self._pool or await self._get_pool()
        return await pool.fetch(sql, *args)  # type: ignore[no-any-return]

    async def row(self, sql: str, *args: Any) -> Row | None:
        pool = self._pool or await self._get_pool()
        return await pool.fetchrow(sql, *args)  # type: ignore[no-any-return]

    async def value(self, sql: str, *args: Any) -> Any:
        pool = self._pool or await self._get_pool()
        return await pool.fetchval(sql, *args)

    async def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()


def _sqlite_param(value: Any) -> Any:
    if isinstance(value, uuid.UUID):
        return value.hex
    if isinstance(value, datetime):
        return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, bool):
        return int(value)
    return value


class SQLiteReader(_InlineSQLite):
    """Inline reads on `query_only` connections of the embedded database."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._idle: list[sqlite3.Connection] = []

    def _checkout(self) -> sqlite3.Connection:
        if self._idle:
            return self._idle.pop()
        connection = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        connection.row_factory = sqlite3.Row
        connection.execute("PRAGMA query_only=ON")
        connection.execute(f"PRAGMA busy_timeout={SQLITE_READ_BUSY_TIMEOUT_MS}")
        return connection

    def _run(self, sql: str, args: tuple[Any, ...]) -> list[sqlite3.Row]:
        connection = self._checkout()
        try:
            return _sqlite_rows(connection, sql, args)
        finally:
            self._idle.append(connection)

    async def close(self) -> None:
        while self._idle:
            self._idle.pop().close()


class SQLiteWriter:
    """Write units on one connection of this process to the embedded database, run inline.
    The caller orders the writers (`db.Database.transaction`); `BEGIN IMMEDIATE` takes the
    database's write lock, which that order leaves free but for the rare outside writer."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._connection: sqlite3.Connection | None = None

    def _open(self) -> sqlite3.Connection:
        if self._connection is None:
            connection = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
            connection.row_factory = sqlite3.Row
            for pragma in ("journal_mode=WAL", "foreign_keys=ON", "synchronous=NORMAL"):
                connection.execute(f"PRAGMA {pragma}")
            connection.execute(f"PRAGMA busy_timeout={SQLITE_WRITE_BUSY_TIMEOUT_MS}")
            self._connection = connection
        return self._connection

    @asynccontextmanager
    async def transaction(self, key: str) -> AsyncIterator[Tx]:
        connection = self._open()
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield SQLiteTx(connection, key)
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def sqlite_path(url: str) -> str:
    """The file of an SQLite URL (`sqlite+aiosqlite:///PATH?…`), or "" for none/in memory."""
    path = url.split(":///", 1)[1] if ":///" in url else ""
    path = path.split("?", 1)[0]
    return "" if path in ("", ":memory:") else path


def make_reader(url: str, pool_size: int) -> Reader:
    """The reader for an SQLAlchemy async URL (`sqlite+aiosqlite:///…`, `postgresql+asyncpg://…`)."""
    if url.startswith("sqlite"):
        return SQLiteReader(sqlite_path(url))
    return PostgresReader("postgresql://" + url.split("://", 1)[1], pool_size)
