"""A write unit meets a failover: what is run again, what is never run twice.

A unit whose connection is lost before its COMMIT was sent cannot have committed: the
database layer runs it again on a new connection. A unit whose connection is lost while its
COMMIT is in flight may have committed: it is never run again (`CommitOutcomeUnknown`), and
the caller is answered as for an outage. A COMMIT is never cancelled, not even by the statement
timeout: on a synchronous primary a cancelled COMMIT commits without the standby.

The connection is lost for real: another session terminates the unit's backend
(`pg_terminate_backend`), as a dying leader does. The COMMIT is held open by a deferred
constraint trigger that sleeps (`pg_sleep`), made inside the unit as temporary objects.
PostgreSQL only (an SQLite unit has no connection to lose).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable

import asyncpg
import pytest
from fastapi import FastAPI

from cardservice.app import create_app
from cardservice.config import Settings
from cardservice.db.sql import Tx
from cardservice.db.unavailable import CommitOutcomeUnknown, is_database_unavailable
from cardservice.transactions.deposits import deposit
from tests.factories import Caller, assert_ledger_consistent, balances, make_account, make_user

pytestmark = pytest.mark.usefixtures("postgres_only")


@pytest.fixture
def postgres_only(app: FastAPI) -> None:
    if app.state.db.is_sqlite:
        pytest.skip("an SQLite write unit has no connection to lose")


async def _terminate(app: FastAPI, pid: int) -> None:
    """Another session ends the backend `pid` (its client sees the connection lost)."""
    connection = await asyncpg.connect(app.state.settings.database_url)
    try:
        assert await connection.fetchval("SELECT pg_terminate_backend($1)", pid)
    finally:
        await connection.close()


async def _committing(app: FastAPI, pid: int) -> bool:
    """Whether the backend `pid` is running COMMIT (in the deferred trigger's sleep): the
    unit's last query, its at-commit statements (the outbox's data) then `COMMIT`."""
    connection = await asyncpg.connect(app.state.settings.database_url)
    try:
        query = await connection.fetchval("SELECT query FROM pg_stat_activity WHERE pid = $1", pid)
    finally:
        await connection.close()
    return query is not None and query.split(";")[-1] == "COMMIT"


async def _slow_commit(tx: Tx, seconds: float) -> None:
    """The unit's COMMIT takes `seconds`: a deferred trigger that sleeps runs at COMMIT."""
    await tx.execute("CREATE TEMP TABLE held_commit (x int) ON COMMIT DROP")
    await tx.execute(
        "CREATE FUNCTION pg_temp.hold() RETURNS trigger LANGUAGE plpgsql AS "
        f"$$ BEGIN PERFORM pg_sleep({seconds}); RETURN NULL; END $$"
    )
    await tx.execute(
        "CREATE CONSTRAINT TRIGGER hold AFTER INSERT ON held_commit DEFERRABLE INITIALLY "
        "DEFERRED FOR EACH ROW EXECUTE FUNCTION pg_temp.hold()"
    )
    await tx.execute("INSERT INTO held_commit VALUES (1)")


async def _deposit_unit(
    app: FastAPI, user: Caller, account: uuid.UUID, then: Callable[[Tx, int], Awaitable[None]]
) -> Callable[[Tx], Awaitable[int]]:
    """A unit that deposits 1.00 through the service, then runs `then(tx, attempt)`."""
    attempts = 0

    async def unit(tx: Tx) -> int:
        nonlocal attempts
        attempts += 1
        await deposit(tx, user.uuid, account, 100, "failover test")
        await then(tx, attempts)
        return attempts

    return unit


async def test_a_unit_whose_connection_is_lost_before_commit_runs_again_once(
    app: FastAPI,
) -> None:
    user = await make_user(app)
    account = await make_account(app, user)

    async def lose_the_first_connection(tx: Tx, attempt: int) -> None:
        if attempt == 1:
            await _terminate(app, int(await tx.value("SELECT pg_backend_pid()")))
            await tx.value("SELECT 1")  # the connection is gone: this statement fails

    unit = await _deposit_unit(app, user, account, lose_the_first_connection)
    assert await app.state.db.transact(unit) == 2  # the second attempt committed
    assert (await balances(app, account))[0] == 100  # deposited once
    await assert_ledger_consistent(app)


async def test_a_unit_whose_connection_is_lost_during_commit_is_never_run_again(
    app: FastAPI,
) -> None:
    user = await make_user(app)
    account = await make_account(app, user)
    backend: list[int] = []

    async def hold_the_commit(tx: Tx, attempt: int) -> None:
        backend.append(int(await tx.value("SELECT pg_backend_pid()")))
        await _slow_commit(tx, 3)

    async def kill_during_commit() -> None:
        for _ in range(500):  # until the unit's COMMIT sleeps in the trigger
            if backend and await _committing(app, backend[0]):
                await _terminate(app, backend[0])
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the unit never reached its COMMIT")

    unit = await _deposit_unit(app, user, account, hold_the_commit)
    killer = asyncio.create_task(kill_during_commit())
    with pytest.raises(CommitOutcomeUnknown) as lost:
        await app.state.db.transact(unit)
    await killer
    assert is_database_unavailable(lost.value)  # answered as an outage: 503, ISO 91
    assert len(backend) == 1  # tried once
    # terminated inside the trigger, before the commit record: here it did not commit
    assert (await balances(app, account))[0] == 0
    await assert_ledger_consistent(app)


async def test_the_statement_timeout_cancels_a_waiting_statement_never_a_commit(
    settings: Settings,
) -> None:
    """With a statement timeout shorter than its COMMIT, a unit still commits (the COMMIT
    is waited for, never cancelled); a statement that waits past the timeout fails its
    unit, which is rolled back and not run again."""
    app = create_app(settings.model_copy(update={"db_statement_timeout_seconds": 0.3}))
    try:
        user = await make_user(app)
        account = await make_account(app, user)

        async def hold_the_commit(tx: Tx, attempt: int) -> None:
            await _slow_commit(tx, 1.0)

        unit = await _deposit_unit(app, user, account, hold_the_commit)
        assert await app.state.db.transact(unit) == 1
        assert (await balances(app, account))[0] == 100  # committed once

        locker = await asyncpg.connect(settings.database_url)
        try:
            lock = locker.transaction()
            await lock.start()
            await locker.execute("SELECT 1 FROM accounts WHERE uuid = $1 FOR UPDATE", account)
            tried: list[Tx] = []

            async def nothing_more(tx: Tx, attempt: int) -> None:
                return None

            deposit_once = await _deposit_unit(app, user, account, nothing_more)

            async def counted(tx: Tx) -> int:
                tried.append(tx)
                return await deposit_once(tx)

            with pytest.raises(TimeoutError):
                await app.state.db.transact(counted)
            await lock.rollback()
        finally:
            await locker.close()
        assert len(tried) == 1  # its statement waited, was cancelled, and was not run again
        assert (await balances(app, account))[0] == 100  # the second deposit rolled back
        await assert_ledger_consistent(app)
    finally:
        await app.state.db.dispose()
        await app.state.rate_limiter.close()
