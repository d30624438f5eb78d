"""Write units (`cardservice.db`): the driver's (`transaction()`) commit or roll back as a
whole and take turns with the ORM's; SQLite's take turns across processes on a file lock."""

from __future__ import annotations

import asyncio
import fcntl
import os
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from fastapi import FastAPI
from sqlalchemy import text

from cardservice.config import Settings
from cardservice.db import Database
from cardservice.models import Team
from cardservice.models.base import utcnow
from cardservice.sql import INTEGRITY_ERRORS, sqlite_path

_INSERT_TEAM = "INSERT INTO teams (uuid, name, created_at) VALUES ($1, $2, $3)"
_TEAMS_NAMED = "SELECT count(*) FROM teams WHERE name LIKE $1"


class _Refused(Exception):
    pass


async def test_a_driver_unit_commits_whole_or_not_at_all(app: FastAPI) -> None:
    db: Database = app.state.db
    async with db.transaction() as tx:
        await tx.execute(_INSERT_TEAM, uuid.uuid4(), "kept-1", utcnow())
        await tx.execute(_INSERT_TEAM, uuid.uuid4(), "kept-2", utcnow())
        assert await tx.value(_TEAMS_NAMED, "kept-%") == 2  # its own writes, before commit
    with pytest.raises(_Refused):
        async with db.transaction() as tx:
            await tx.execute(_INSERT_TEAM, uuid.uuid4(), "undone-1", utcnow())
            await tx.execute(_INSERT_TEAM, uuid.uuid4(), "undone-2", utcnow())
            raise _Refused
    assert await db.reader.value(_TEAMS_NAMED, "kept-%") == 2
    assert await db.reader.value(_TEAMS_NAMED, "undone-%") == 0
    # A failing statement (the name is unique) undoes the unit's earlier statements too.
    with pytest.raises(INTEGRITY_ERRORS):
        async with db.transaction() as tx:
            await tx.execute(_INSERT_TEAM, uuid.uuid4(), "undone-3", utcnow())
            await tx.execute(_INSERT_TEAM, uuid.uuid4(), "kept-1", utcnow())
    assert await db.reader.value(_TEAMS_NAMED, "undone-%") == 0
    async with db.transaction() as tx:  # and the connection is fit for the next unit
        assert await tx.value(_TEAMS_NAMED, "kept-%") == 2


async def test_driver_and_orm_units_run_side_by_side(app: FastAPI) -> None:
    """On SQLite both kinds queue for the one writer; none fails with "database is locked"."""
    db: Database = app.state.db

    async def by_driver(i: int) -> None:
        async with db.transaction() as tx:
            await tx.execute(_INSERT_TEAM, uuid.uuid4(), f"side-d{i}", utcnow())
            await asyncio.sleep(0)  # let the others queue meanwhile

    async def by_orm(i: int) -> None:
        async with db.write() as session:
            session.add(Team(name=f"side-o{i}"))
            await session.flush()
            await asyncio.sleep(0)

    await asyncio.gather(*(f(i) for i in range(25) for f in (by_driver, by_orm)))
    assert await db.reader.value(_TEAMS_NAMED, "side-%") == 50


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


async def _write_one_by_driver(db: Database) -> int:
    async with db.transaction() as tx:
        return int(await tx.value("SELECT 1"))


@pytest.mark.parametrize("write", [_write_one, _write_one_by_driver], ids=["orm", "driver"])
async def test_a_writer_waits_for_the_other_process_and_then_runs(
    sqlite_db: Database, settings: Settings, write: Callable[[Database], Awaitable[int]]
) -> None:
    fd = _other_process_lock(sqlite_path(settings.resolved_database_url))
    try:
        writer = asyncio.create_task(write(sqlite_db))
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
