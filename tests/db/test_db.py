"""The connection layer (`cardservice.db.database`): units commit or roll back whole, deadlocked
units run again, SQLite's writers take turns across processes on a file lock, and PostgreSQL's
write units never take the reads' last connections."""

from __future__ import annotations

import asyncio
import fcntl
import os
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import asyncpg
import httpx
import pytest
from fastapi import FastAPI

from cardservice import runtime
from cardservice.config import Settings
from cardservice.db.database import ConfigurationError, Database
from cardservice.db.sql import INTEGRITY_ERRORS, Tx, pg_literal, sqlite_path
from cardservice.http.router import dumps
from cardservice.models.base import utcnow
from tests.factories import bin_uuid, make_account, make_user

_INSERT_TEAM = "INSERT INTO teams (uuid, name, created_at) VALUES ($1, $2, $3)"
_TEAMS_NAMED = "SELECT count(*) FROM teams WHERE name LIKE $1"


class _Refused(Exception):
    pass


async def test_a_driver_unit_commits_whole_or_not_at_all(app: FastAPI) -> None:
    db: Database = app.state.db

    async def kept(tx: Tx) -> int:
        await tx.execute(_INSERT_TEAM, uuid.uuid4(), "kept-1", utcnow())
        await tx.execute(_INSERT_TEAM, uuid.uuid4(), "kept-2", utcnow())
        return int(await tx.value(_TEAMS_NAMED, "kept-%"))  # its own writes, before commit

    assert await db.transact(kept) == 2

    async def refused(tx: Tx) -> None:
        await tx.execute(_INSERT_TEAM, uuid.uuid4(), "undone-1", utcnow())
        await tx.execute(_INSERT_TEAM, uuid.uuid4(), "undone-2", utcnow())
        raise _Refused

    with pytest.raises(_Refused):
        await db.transact(refused)
    assert await db.reader.value(_TEAMS_NAMED, "kept-%") == 2
    assert await db.reader.value(_TEAMS_NAMED, "undone-%") == 0

    async def clashing(tx: Tx) -> None:  # the name is unique: the second insert fails
        await tx.execute(_INSERT_TEAM, uuid.uuid4(), "undone-3", utcnow())
        await tx.execute(_INSERT_TEAM, uuid.uuid4(), "kept-1", utcnow())

    # A failing statement undoes the unit's earlier statements too.
    with pytest.raises(INTEGRITY_ERRORS):
        await db.transact(clashing)
    assert await db.reader.value(_TEAMS_NAMED, "undone-%") == 0

    async def count(tx: Tx) -> int:  # and the connection is fit for the next unit
        return int(await tx.value(_TEAMS_NAMED, "kept-%"))

    assert await db.transact(count) == 2


async def test_units_of_many_coroutines_queue_for_the_writer(app: FastAPI) -> None:
    """On SQLite they take turns on the one writer; none fails with "database is locked"."""
    db: Database = app.state.db

    async def insert(i: int) -> None:
        async def unit(tx: Tx) -> None:
            await tx.execute(_INSERT_TEAM, uuid.uuid4(), f"side-{i}", utcnow())
            await asyncio.sleep(0)  # let the others queue meanwhile

        await db.transact(unit)

    await asyncio.gather(*(insert(i) for i in range(50)))
    assert await db.reader.value(_TEAMS_NAMED, "side-%") == 50


@pytest.fixture
async def sqlite_db(settings: Settings) -> AsyncIterator[Database]:
    if not settings.is_sqlite:
        pytest.skip("the writer file lock is SQLite's")
    db = runtime.database(settings)
    yield db
    await db.dispose()


def _other_process_lock(db_path: str) -> int:
    """Hold the writer lock through another open file: to flock, that is another process."""
    fd = os.open(f"{db_path}-writer.lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def _lock_is_free(db_path: str) -> bool:
    """Whether another process could take the writer lock now."""
    fd = os.open(f"{db_path}-writer.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)  # closing the file releases a lock it took
    return True


async def _write_one(db: Database) -> int:
    async def unit(tx: Tx) -> int:
        return int(await tx.value("SELECT 1"))

    return await db.transact(unit)


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


async def test_a_cancelled_waiter_never_releases_the_next_holders_lock(
    sqlite_db: Database, settings: Settings
) -> None:
    """A waiter cancelled while its thread still waits, then a second waiter of the same
    process: once the other process lets go, the second holds the lock for its whole unit;
    the first one's late arrival must not give it away under it."""
    path = sqlite_path(settings.resolved_database_url)
    fd = _other_process_lock(path)
    first = asyncio.create_task(_write_one(sqlite_db))
    await asyncio.sleep(0.1)
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await first
    holding, leave = asyncio.Event(), asyncio.Event()

    async def unit(tx: Tx) -> None:
        holding.set()
        await leave.wait()

    second = asyncio.create_task(sqlite_db.transact(unit))
    await asyncio.sleep(0.1)
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)
    await asyncio.wait_for(holding.wait(), 5)
    for _ in range(10):  # give a stray release every chance to happen
        await asyncio.sleep(0.02)
        assert not _lock_is_free(path), "the lock was released while a unit held it"
    leave.set()
    await asyncio.wait_for(second, 5)
    assert _lock_is_free(path)


def test_an_in_memory_sqlite_database_is_refused(tmp_path: Path) -> None:
    """Each connection would open a database of its own: writes the reads never see."""
    for url in ("sqlite:///:memory:", "sqlite://", "sqlite:///file:x?mode=memory&uri=true"):
        with pytest.raises(ConfigurationError):
            runtime.database(Settings(database_url=url, var_dir=tmp_path))


@pytest.fixture
async def postgres_app(app: FastAPI) -> FastAPI:
    if app.state.db.is_sqlite:
        pytest.skip("PostgreSQL's pool and row locks")
    return app


async def test_a_deadlocked_unit_is_run_again(postgres_app: FastAPI) -> None:
    """Two units lock two rows in opposite orders: the database aborts one, `transact`
    runs it again, and both complete."""
    db: Database = postgres_app.state.db
    first, second = uuid.uuid4(), uuid.uuid4()
    await db.transact(lambda tx: tx.execute(_INSERT_TEAM, first, "lock-a", utcnow()))
    await db.transact(lambda tx: tx.execute(_INSERT_TEAM, second, "lock-b", utcnow()))
    both_hold = asyncio.Barrier(2)
    attempts = {"ab": 0, "ba": 0}

    def crossing(name: str, a: uuid.UUID, b: uuid.UUID) -> Callable[[Tx], Awaitable[None]]:
        async def unit(tx: Tx) -> None:
            attempts[name] += 1
            await tx.execute("UPDATE teams SET name = name WHERE uuid = $1", a)
            if attempts[name] == 1:
                await both_hold.wait()
            await tx.execute("UPDATE teams SET name = name WHERE uuid = $1", b)

        return unit

    await asyncio.wait_for(
        asyncio.gather(
            db.transact(crossing("ab", first, second)), db.transact(crossing("ba", second, first))
        ),
        30,
    )
    # the unit the database chose as the victim ran again (a busy machine may let the
    # retry meet the other unit once more); the other committed at its first try
    first_try, retried = sorted(attempts.values())
    assert first_try == 1 and retried >= 2


async def test_values_written_into_a_statement_come_back_as_they_were(
    postgres_app: FastAPI,
) -> None:
    """`pg_literal` (the statements sent with a COMMIT): text that holds or ends with the
    dollar tags, quotes, backslashes, and the other kinds, read back unchanged."""
    texts = ["", "$", "$$", "$q", "$q$", "a$q", "a$q1", "$q$ $q1$ $q2", "'; DROP TABLE x; --",
             "\\", "\\'", "é ✓", "{}"]  # fmt: skip
    moment, key = utcnow(), uuid.uuid4()
    values: list[object] = [*texts, None, 0, -(2**62), True, False, key, moment]
    reader = postgres_app.state.db.reader
    for value in values:
        assert await reader.value(f"SELECT {pg_literal(value)}") == value, value


async def test_arrays_written_into_a_statement_come_back_as_they_were(
    postgres_app: FastAPI,
) -> None:
    """`pg_literal` of a list (a statement sent with a COMMIT by `EXECUTE`): elements that
    look like the array's own syntax, NULLs and the other kinds, read back unchanged."""
    texts = ["", "NULL", "a,b", "{x}", '"', '\\"', "\\", "$q$", " lead", "é ✓", '{"j": 1}', None]
    moment, key = utcnow(), uuid.uuid4()
    arrays: list[tuple[str, list[object]]] = [
        ("text[]", list(texts)), ("uuid[]", [key, None]), ("bigint[]", [0, -(2**62), None]),
        ("timestamptz[]", [moment, None]), ("boolean[]", [True, False, None]), ("text[]", []),
    ]  # fmt: skip
    reader = postgres_app.state.db.reader
    for kind, values in arrays:
        assert await reader.value(f"SELECT CAST({pg_literal(values)} AS {kind})") == values


async def test_a_statement_sent_with_the_commit_is_prepared_once_and_fails_its_unit(
    postgres_app: FastAPI,
) -> None:
    """`Tx.with_commit`: the statement is prepared once on its connection and run in the
    COMMIT's round trip; when it fails, the COMMIT does, and nothing of the unit is kept."""
    db: Database = postgres_app.state.db
    taken = uuid.uuid4()

    async def named(tx: Tx, team: uuid.UUID, name: str) -> list[str]:
        await tx.execute(_INSERT_TEAM, uuid.uuid4(), f"{name}-before", utcnow())
        await tx.with_commit(_INSERT_TEAM, team, name, utcnow())
        rows = await tx.rows("SELECT name FROM pg_prepared_statements WHERE name LIKE 'cs_%'")
        return [row["name"] for row in rows]

    first = await db.transact(lambda tx: named(tx, taken, "sent-1"))
    again = await db.transact(lambda tx: named(tx, uuid.uuid4(), "sent-2"))
    assert len(first) == len(again) == 1  # (the pool may have handed out another connection)
    with pytest.raises(INTEGRITY_ERRORS):  # the uuid is taken: the COMMIT fails
        await db.transact(lambda tx: named(tx, taken, "sent-3"))
    assert await db.reader.value(_TEAMS_NAMED, "sent-%") == 4


async def test_a_chains_units_begin_with_the_commit_before_theirs(postgres_app: FastAPI) -> None:
    """`Database.chained`: units one after the other on one connection; when `more()` says so
    at a COMMIT, the next unit's transaction began with it (its `now()`, the transaction's
    start, is before the unit was called), otherwise with its own BEGIN (after); a
    transaction begun for no unit is rolled back when the chain ends."""
    db: Database = postgres_app.state.db
    follows = {"more": True}

    def unit(more_after: bool) -> Callable[[Tx], Awaitable[tuple[int, float]]]:
        async def work(tx: Tx) -> tuple[int, float]:
            await tx.execute(_INSERT_TEAM, uuid.uuid4(), f"chained-{uuid.uuid4()}", utcnow())
            row = await tx.row("SELECT pg_backend_pid() AS pid, extract(epoch FROM now()) AS at")
            assert row is not None
            follows["more"] = more_after  # what `more()` says at this unit's COMMIT
            return int(row["pid"]), float(row["at"])

        return work

    taken = uuid.uuid4()
    await db.transact(lambda tx: tx.execute(_INSERT_TEAM, taken, f"taken-{taken}", utcnow()))

    async def failing_at_commit(tx: Tx) -> None:
        await tx.with_commit(_INSERT_TEAM, taken, f"again-{taken}", utcnow())

    async with db.chained(lambda: follows["more"]) as chained:
        with pytest.raises(INTEGRITY_ERRORS):  # its COMMIT fails: the connection is clean
            await chained.transact(failing_at_commit)
        first_pid, _ = await chained.transact(unit(more_after=True))
        await asyncio.sleep(0.05)
        called = time.time()
        second_pid, second_began = await chained.transact(unit(more_after=False))
        await asyncio.sleep(0.05)
        called_again = time.time()
        third_pid, third_began = await chained.transact(unit(more_after=True))
    assert first_pid == second_pid == third_pid
    assert second_began < called  # begun by the first unit's COMMIT
    assert third_began >= called_again  # by its own BEGIN
    assert await db.reader.value(_TEAMS_NAMED, "chained-%") == 3
    state = await db.reader.value("SELECT state FROM pg_stat_activity WHERE pid = $1", first_pid)
    assert state != "idle in transaction"  # the one the last COMMIT began, rolled back


async def test_a_chain_whose_connection_was_lost_goes_on_with_another(
    postgres_app: FastAPI,
) -> None:
    """A chain's held connection lost between its units (a restart, a failover, an operator's
    `pg_terminate_backend`; asyncpg's pool takes such a connection back by itself): its next
    unit runs on a new connection, and the chain ends cleanly."""
    db: Database = postgres_app.state.db

    async def pid(tx: Tx) -> int:
        return int(await tx.value("SELECT pg_backend_pid()"))

    async with db.chained(lambda: True) as chained:
        first = await chained.transact(pid)
        await db.reader.value("SELECT pg_terminate_backend($1)", first)
        await asyncio.sleep(0.2)  # the client side sees the connection closed
        second = await chained.transact(pid)
        third = await chained.transact(pid)
    assert second != first
    assert third == second
    state = await db.reader.value("SELECT state FROM pg_stat_activity WHERE pid = $1", second)
    assert state != "idle in transaction"


async def test_write_units_queued_on_a_row_lock_leave_connections_to_reads(
    postgres_app: FastAPI, client: httpx.AsyncClient
) -> None:
    """Purchases queued on one account's row lock never take the last connections: another
    user's request is authenticated and answered while they wait."""
    app = postgres_app
    buyer, reader = await make_user(app), await make_user(app)
    account = await make_account(app, buyer, funds="1000")
    bin_ = await bin_uuid(app)
    holder = await asyncpg.connect(app.state.settings.resolved_database_url.replace("+asyncpg", ""))
    try:
        await holder.execute("BEGIN")
        await holder.execute("SELECT 1 FROM accounts WHERE uuid = $1 FOR UPDATE", account)
        body = dumps({"account_uuid": str(account), "bin_uuid": bin_})
        headers = {**buyer.headers, "Content-Type": "application/json"}
        buys = [
            asyncio.create_task(client.post("/card/buy", content=body, headers=headers))
            for _ in range(app.state.settings.db_pool_size * 2)
        ]
        await asyncio.sleep(0.5)
        assert not any(buy.done() for buy in buys)
        answer = await asyncio.wait_for(client.get("/card", headers=reader.headers), 10)
        assert answer.status_code == 200
    finally:
        await holder.execute("ROLLBACK")
        await holder.close()
    assert all(r.status_code == 201 for r in await asyncio.gather(*buys))


async def test_sqlite_scans_waiting_for_a_thread_hold_no_connection(tmp_path: Path) -> None:
    """Each reader connection keeps its own page cache: 64 long reads at once (deep report
    pages under load) must not open 64 of them, only one per thread that runs a scan."""
    settings = Settings(database_url=f"sqlite:///{tmp_path}/scans.db")
    db = runtime.database(settings)
    try:
        walk = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) "
        results = await asyncio.gather(
            *(db.reader.scan(walk + "SELECT count(*) FROM n") for _ in range(64))
        )
        assert [r[0][0] for r in results] == [20000] * 64
        threads = min(32, (os.cpu_count() or 1) + 4)  # the default executor's size
        assert 1 <= len(db.reader._idle) <= threads  # type: ignore[attr-defined]
    finally:
        await db.dispose()


async def test_queued_units_run_in_order_each_committing_or_failing_alone(
    sqlite_db: Database, settings: Settings
) -> None:
    """Units queued while another process writes run back to back once the turn comes, in
    the order they were queued; one that fails rolls back only itself."""
    fd = _other_process_lock(sqlite_path(settings.resolved_database_url))
    ran: list[int] = []

    def unit_of(i: int) -> Callable[[Tx], Awaitable[int]]:
        async def unit(tx: Tx) -> int:
            ran.append(i)
            await tx.execute(_INSERT_TEAM, uuid.uuid4(), f"queued-{i}", utcnow())
            if i == 2:
                raise _Refused
            return i

        return unit

    try:
        callers = [asyncio.create_task(sqlite_db.transact(unit_of(i))) for i in range(5)]
        await asyncio.sleep(0.1)
        assert ran == []  # the other process still holds the turn
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
    outcomes = await asyncio.wait_for(asyncio.gather(*callers, return_exceptions=True), 5)
    assert ran == [0, 1, 2, 3, 4]
    assert outcomes[:2] == [0, 1] and outcomes[3:] == [3, 4]
    assert isinstance(outcomes[2], _Refused)
    names = await sqlite_db.reader.rows("SELECT name FROM teams WHERE name LIKE 'queued-%'")
    assert sorted(row[0] for row in names) == ["queued-0", "queued-1", "queued-3", "queued-4"]


async def test_a_unit_whose_caller_left_before_its_turn_never_runs(
    sqlite_db: Database, settings: Settings
) -> None:
    fd = _other_process_lock(sqlite_path(settings.resolved_database_url))
    ran: list[str] = []

    async def unit(tx: Tx) -> None:
        ran.append("left")
        await tx.execute(_INSERT_TEAM, uuid.uuid4(), "left-behind", utcnow())

    try:
        caller = asyncio.create_task(sqlite_db.transact(unit))
        await asyncio.sleep(0.1)
        caller.cancel()
        with pytest.raises(asyncio.CancelledError):
            await caller
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
    assert await asyncio.wait_for(_write_one(sqlite_db), 5) == 1  # the turn came and went
    assert ran == []
    assert await sqlite_db.reader.value(_TEAMS_NAMED, "left-behind") == 0


async def test_disposing_the_database_fails_the_units_still_queued(
    sqlite_db: Database, settings: Settings
) -> None:
    fd = _other_process_lock(sqlite_path(settings.resolved_database_url))
    try:
        caller = asyncio.create_task(_write_one(sqlite_db))
        await asyncio.sleep(0.1)
        await sqlite_db.dispose()  # (the fixture's second dispose does nothing)
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(caller, 5)
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


async def test_disposing_the_database_mid_unit_fails_that_units_caller(
    sqlite_db: Database,
) -> None:
    """A unit still running when the process stops: its caller is told, never left waiting."""
    started = asyncio.Event()

    async def unit(tx: Tx) -> None:
        started.set()
        await asyncio.Event().wait()  # never set: the unit is still running at shutdown

    caller = asyncio.create_task(sqlite_db.transact(unit))
    await asyncio.wait_for(started.wait(), 5)
    await sqlite_db.dispose()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(caller, 5)
