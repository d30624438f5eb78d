"""Plain SQL reads on the driver itself, for the hot read paths.

The ORM costs 0.3–1 ms of CPU per statement (measured: `python -m bench.profile`), which is
most of a read request. The endpoints that every client polls — authentication, card and
account lists, the transaction report, one transaction, the summary — read through this
module instead: hand-written SQL, one statement where one will do, rows straight from the
driver. Writes and rare reads keep the ORM (`db.write()` / `db.read()`).

One SQL text serves both databases: placeholders are written `$1, $2, …` (PostgreSQL's) and
become SQLite's numbered `?1, ?2, …`. Parameters are converted to what each database stores
(SQLite: uuid → 32 hex digits, datetime → `YYYY-MM-DD HH:MM:SS.ffffff` UTC, bool → 0/1, as
SQLAlchemy stores them); values read back go through `text_uuid`, `iso_z` and `flag`.

* PostgreSQL: an asyncpg pool of its own (prepared statements are cached per connection).
* SQLite: reads run inline on the event loop thread, each on a connection of a small pool
  opened `query_only`. An indexed read takes microseconds, less than the hop to a driver
  thread would cost; WAL lets them run beside the writer without waiting.
"""

from __future__ import annotations

import re
import sqlite3
import uuid
from collections.abc import Iterator, Sequence
from datetime import UTC, date, datetime
from typing import Any, Protocol

import asyncpg  # type: ignore[import-untyped]


class Row(Protocol):
    """A result row: by column name or position (asyncpg's Record, sqlite3.Row)."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...  # the values, in column order


_PLACEHOLDER = re.compile(r"\$(\d+)")
SQLITE_READ_BUSY_TIMEOUT_MS = 5_000


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


class PostgresReader:
    """Reads on an asyncpg pool of their own, opened on first use."""

    def __init__(self, dsn: str, max_size: int) -> None:
        self._dsn, self._max_size = dsn, max_size
        self._pool: asyncpg.Pool | None = None

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


class SQLiteReader:
    """Inline reads on `query_only` connections of the embedded database."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._idle: list[sqlite3.Connection] = []
        self._sql: dict[str, str] = {}

    def _checkout(self) -> sqlite3.Connection:
        if self._idle:
            return self._idle.pop()
        connection = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        connection.row_factory = sqlite3.Row
        connection.execute("PRAGMA query_only=ON")
        connection.execute(f"PRAGMA busy_timeout={SQLITE_READ_BUSY_TIMEOUT_MS}")
        return connection

    def _run(self, sql: str, args: tuple[Any, ...]) -> list[sqlite3.Row]:
        text = self._sql.get(sql)
        if text is None:
            text = self._sql[sql] = _PLACEHOLDER.sub(r"?\1", sql)
        connection = self._checkout()
        try:
            return connection.execute(text, [_sqlite_param(a) for a in args]).fetchall()
        finally:
            self._idle.append(connection)

    async def rows(self, sql: str, *args: Any) -> Sequence[Row]:
        return self._run(sql, args)

    async def row(self, sql: str, *args: Any) -> Row | None:
        found = self._run(sql, args)
        return found[0] if found else None

    async def value(self, sql: str, *args: Any) -> Any:
        found = self._run(sql, args)
        return found[0][0] if found else None

    async def close(self) -> None:
        while self._idle:
            self._idle.pop().close()


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
