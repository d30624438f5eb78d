"""Engines per URL (SQLite or PostgreSQL) and the unit of work.

SQLite: WAL, foreign keys on, and we issue `BEGIN IMMEDIATE` ourselves for write units so
concurrent writers queue on the database lock instead of failing with "database is locked".
Reads use a deferred `BEGIN` and never wait for writers (WAL). The hot read paths skip the
ORM and read through `reader` (see `cardservice.sql`).

PostgreSQL connections are not pinged on checkout (a round trip per request); a connection
that died with a server restart fails one request, is discarded, and the pool reconnects.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from cardservice.config import Settings
from cardservice.sql import Reader, make_reader

SQLITE_BUSY_TIMEOUT_MS = 30_000


def _sqlite_engine(url: str, *, begin: str, pool_size: int) -> AsyncEngine:
    engine = create_async_engine(
        url, pool_size=pool_size, max_overflow=pool_size * 2, pool_timeout=60
    )

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql(begin)

    return engine


class Database:
    """The engines of one service instance; `write()` and `read()` open units of work."""

    def __init__(self, settings: Settings) -> None:
        url = settings.resolved_database_url
        self.is_sqlite = settings.is_sqlite
        if self.is_sqlite:
            self._ensure_sqlite_dir(url)
            self.write_engine = _sqlite_engine(
                url, begin="BEGIN IMMEDIATE", pool_size=settings.db_pool_size
            )
            self.read_engine = _sqlite_engine(url, begin="BEGIN", pool_size=settings.db_pool_size)
        else:
            self.write_engine = create_async_engine(
                url,
                pool_size=settings.db_pool_size,
                max_overflow=settings.db_pool_size * 2,
                pool_timeout=60,
                pool_recycle=3600,
            )
            self.read_engine = self.write_engine
        self._write = async_sessionmaker(self.write_engine, expire_on_commit=False)
        self._read = async_sessionmaker(self.read_engine, expire_on_commit=False)
        self.reader: Reader = make_reader(url, settings.db_pool_size)
        self._write_lock = asyncio.Lock() if self.is_sqlite else None

    @staticmethod
    def _ensure_sqlite_dir(url: str) -> None:
        path = url.split(":///", 1)[1] if ":///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """A write unit of work: commits when the block ends, rolls back on any error.

        SQLite has one writer at a time: units of this process queue on an asyncio lock, in
        order, instead of polling the file lock in SQLite's busy handler (which sleeps up to
        100 ms between tries and lets late comers overtake); only other processes poll.
        """
        if self._write_lock is None:
            async with self._write() as session, session.begin():
                yield session
            return
        async with self._write_lock, self._write() as session, session.begin():
            yield session

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        """A read-only unit of work: closing the session rolls it back."""
        async with self._read() as session:
            yield session

    async def dispose(self) -> None:
        await self.reader.close()
        await self.write_engine.dispose()
        if self.read_engine is not self.write_engine:
            await self.read_engine.dispose()
