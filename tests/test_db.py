"""SQLite write units take turns across processes on a file lock (`cardservice.db`)."""

from __future__ import annotations

import asyncio
import fcntl
import os
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import text

from cardservice.config import Settings
from cardservice.db import Database
from cardservice.sql import sqlite_path


@pytest.fixture
async def sqlite_db(settings: Settings) -> AsyncIterator[Database]:
    if not settings.is_sqlite:
        pytest.skip("the writer file lock is SQLite's")
    db = Database(settings)
    yield db
    await db.dispose()


def _other_process_lock(db_path: str) -> int:
    """Hold the writer lock through another open file: to flock, that is another process."""
    fd = os.open(f"{db_path}-writer.lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


async def _write_one(db: Database) -> int:
    async with db.write() as session:
        return int((await session.execute(text("SELECT 1"))).scalar_one())


async def test_a_writer_waits_for_the_other_process_and_then_runs(
    sqlite_db: Database, settings: Settings
) -> None:
    fd = _other_process_lock(sqlite_path(settings.resolved_database_url))
    try:
        writer = asyncio.create_task(_write_one(sqlite_db))
        await asyncio.sleep(0.2)
        assert not writer.done()
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
    assert await asyncio.wait_for(writer, 5) == 1


async def test_a_cancelled_waiter_gives_the_lock_back(
    sqlite_db: Database, settings: Settings
) -> None:
    path = sqlite_path(settings.resolved_database_url)
    fd = _other_process_lock(path)
    writer = asyncio.create_task(_write_one(sqlite_db))
    await asyncio.sleep(0.2)
    writer.cancel()
    with pytest.raises(asyncio.CancelledError):
        await writer
    fcntl.flock(fd, fcntl.LOCK_UN)
    # The waiting thread takes the lock once it is free and hands it straight back, so the
    # other process gets it again and this process's next unit is not blocked forever.
    for _ in range(50):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            await asyncio.sleep(0.05)
    else:
        pytest.fail("the cancelled waiter kept the writer lock")
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)
    assert await asyncio.wait_for(_write_one(sqlite_db), 5) == 1
