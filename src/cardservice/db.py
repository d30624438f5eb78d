"""Engines per URL (SQLite or PostgreSQL) and the unit of work.

SQLite: WAL, foreign keys on, and we issue `BEGIN IMMEDIATE` ourselves for write units so
concurrent writers queue on the database lock instead of failing with "database is locked".
Reads use a deferred `BEGIN` and never wait for writers (WAL). The hot read paths skip the
ORM and read through `reader`, the hot writes through `transaction()` (see `cardservice.sql`).

PostgreSQL connections are not pinged on checkout (a round trip per request); a connection
that died with a server restart fails one request, is discarded, and the pool reconnects.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from sqlalchemy import event
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from cardservice.config import Settings
from cardservice.events.outbox import complete_events
from cardservice.sql import (
    PostgresReader,
    Reader,
    SQLiteWriter,
    Tx,
    make_reader,
    session_tx,
    sqlite_path,
)

SQLITE_BUSY_TIMEOUT_MS = 30_000
T = TypeVar("T")


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


class _WriterFileLock:
    """An exclusive `flock` on `<database>-writer.lock`, held around each SQLite write unit.

    Workers are separate processes; without this, a worker that finds the database locked
    polls in SQLite's busy handler (sleeping up to 100 ms between tries) while the holder's
    queue keeps overtaking it, and under load its requests starve for seconds. A process
    waiting on `flock` sleeps in the kernel and is woken when the lock is released. The file
    is opened per process (never inherited across a fork: that would share one lock). It
    only orders the writers; SQLite's own database lock remains the guard of correctness.
    """

    def __init__(self, path: str) -> None:
        self._path = path
        self._fd = -1
        self._pid = 0

    def _descriptor(self) -> int:
        if self._pid != os.getpid():
            self._fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o600)
            self._pid = os.getpid()
        return self._fd

    async def acquire(self) -> None:
        fd = self._descriptor()
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        waiting = asyncio.ensure_future(asyncio.to_thread(fcntl.flock, fd, fcntl.LOCK_EX))
        try:
            await asyncio.shield(waiting)
        except asyncio.CancelledError:
            # The thread takes the lock regardless; give it back as soon as it does.
            waiting.add_done_callback(
                lambda done: None if done.cancelled() or done.exception() else self.release()
            )
            raise

    def release(self) -> None:
        fcntl.flock(self._fd, fcntl.LOCK_UN)

    def close(self) -> None:
        if self._pid == os.getpid():
            os.close(self._fd)
        self._pid = 0


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
        self._key = url
        self._write_lock = asyncio.Lock() if self.is_sqlite else None
        path = sqlite_path(url) if self.is_sqlite else ""
        self._writer_file = _WriterFileLock(f"{path}-writer.lock") if path else None
        self._sqlite_writer = SQLiteWriter(path) if self.is_sqlite else None

    @staticmethod
    def _ensure_sqlite_dir(url: str) -> None:
        path = sqlite_path(url)
        if path:
            Path(path).parent.mkdir(parents=True, exist_ok=True)

    @asynccontextmanager
    async def _writer_turn(self) -> AsyncIterator[None]:
        """SQLite has one writer at a time: units of this process queue on an asyncio lock,
        in order, and the processes take turns on a file lock (`_WriterFileLock`), instead of
        polling the database lock in SQLite's busy handler, which sleeps up to 100 ms
        between tries and lets late comers overtake."""
        assert self._write_lock is not None
        async with self._write_lock:
            if self._writer_file is not None:
                await self._writer_file.acquire()
            try:
                yield
            finally:
                if self._writer_file is not None:
                    self._writer_file.release()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """A write unit on the driver (`cardservice.sql.Tx`), for the hot write paths: commits
        when the block ends, rolls back on any error. On PostgreSQL a connection of the
        reader's pool; on SQLite the process's write connection, run inline in its turn."""
        if self._sqlite_writer is None:
            assert isinstance(self.reader, PostgresReader)
            async with self.reader.transaction(self._key) as tx:
                yield tx
                await complete_events(tx)
            return
        async with self._writer_turn(), self._sqlite_writer.transaction(self._key) as tx:
            yield tx
            await complete_events(tx)

    async def transact(self, work: Callable[[Tx], Awaitable[T]]) -> T:
        """Run `work` as one write unit on the driver: committed when it returns, rolled back
        when it raises. Every write goes through here."""
        async with self.transaction() as tx:
            return await work(tx)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """A write unit of work in the ORM: commits when the block ends, rolls back on any
        error. On SQLite it waits for the writer's turn (`_writer_turn`)."""
        if self._write_lock is None:
            async with self._write() as session, session.begin():
                yield session
                await complete_events(await session_tx(session))
            return
        async with self._writer_turn(), self._write() as session, session.begin():
            yield session
            await complete_events(await session_tx(session))

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        """A read-only unit of work: closing the session rolls it back."""
        async with self._read() as session:
            yield session

    async def dispose(self) -> None:
        if self._writer_file is not None:
            self._writer_file.close()
        if self._sqlite_writer is not None:
            self._sqlite_writer.close()
        await self.reader.close()
        await self.write_engine.dispose()
        if self.read_engine is not self.write_engine:
            await self.read_engine.dispose()


def database(request: Request) -> Database:
    """The service instance's database (a route dependency: `db: Db`)."""
    db: Database = request.app.state.db
    return db


Db = Annotated[Database, Depends(database)]
