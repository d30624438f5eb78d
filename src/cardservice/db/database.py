"""The connection layer: every pool, PRAGMA and lock of one service instance, in one place.

* `db.reader` — read statements (`cardservice.db.sql.Reader`); with `REPLICA_URL`, the routes
  that may read from the standby get a `db` whose reader may (`cardservice.db.replica`).
* `await db.transact(work)` — one write unit: `work(tx)` runs its statements on a `Tx`; the
  unit commits when `work` returns and rolls back when it raises. Every write of the service
  (money or not) goes through here. A unit that meets a deadlock or a serialization failure
  is run again whole, a bounded number of times, before anything is answered, and so is one
  whose connection was lost before its COMMIT was sent (a failover, a restart: it cannot have
  committed); one whose connection was lost during its COMMIT is never run again
  (`unavailable.CommitOutcomeUnknown`). So `work` does nothing outside the database that
  could not be repeated.
* `async with db.held(name)` — a lock held across units, for a job that runs once at a time
  across processes (one clearing file's ingest).

PostgreSQL: one asyncpg pool per process. Write units may take all but `READ_RESERVE` of its
connections, so that units queued on one hot row lock can never starve the reads (and the
authentication of every other request) of a connection.

SQLite: WAL; reads on `query_only` connections; one write connection per process, used once
the process holds the writer's turn. A process's units queue (`_SQLiteUnits`) and one task
runs them back to back while it holds the turn, for up to `TURN_SECONDS`; processes take
turns on a file lock (`_WriterFileLock`), instead of polling the database lock in SQLite's
busy handler, which sleeps up to 100 ms between tries and lets late comers overtake.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import fcntl
import hashlib
import logging
import os
import random
import sqlite3
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import asyncpg  # type: ignore[import-untyped]
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from cardservice.config import Settings
from cardservice.db import deadlines
from cardservice.db.deadlines import Deadline
from cardservice.db.replica import PROBE_TTL_SECONDS, STANDBY_ROUTES, Pins, Standby
from cardservice.db.sql import (
    Chain,
    PostgresPool,
    Reader,
    SQLiteReader,
    SQLiteWriter,
    Tx,
    sqlite_path,
)
from cardservice.db.unavailable import CommitOutcomeUnknown, is_database_unavailable
from cardservice.observability import metrics

T = TypeVar("T")
logger = logging.getLogger("cardservice.db.database")

HELD_BUCKETS = 64  # SQLite: the lock files of `Database.held`
HELD_POLL_SECONDS = 0.05  # SQLite: how often a waiter of `Database.held` tries again
UNIT_ATTEMPTS = 5  # a unit is tried at most this often (deadlock, connection lost before COMMIT)

CommitHook = Callable[["Tx"], Awaitable[None]]
NumberedHook = Callable[["Tx", Sequence[int]], Awaitable[None]]
"""`hook(tx)`: run at the end of every write unit, inside it, before it commits. A database's
hooks are given when it is built (`cardservice.runtime.database`: the outbox's
`complete_events`); this module imports no domain."""


async def _before_commit(hooks: tuple[CommitHook, ...], tx: Tx) -> None:
    for hook in hooks:
        await hook(tx)


READ_RESERVE = 2  # PostgreSQL connections write units leave to reads
_HELD_SLOT = contextlib.nullcontext()  # a `chained` view's units: its block holds their slot
_RETRYABLE = (asyncpg.DeadlockDetectedError, asyncpg.SerializationError)
TURN_SECONDS = 0.02  # SQLite: the longest a process keeps the writer's turn while others wait


class ConfigurationError(RuntimeError):
    """The settings name a database the service cannot run on."""


# the database's deferred check of an event committed without its data (migration 20261127_55)
EVENTS_COMPLETED = "events_completed"


class _LeftAnEvent(Exception):
    """A unit that skipped the commit hooks (`Tx.events_written`) left an event without its
    data: its COMMIT failed on the database's check, and it runs again with them."""


def _is_retryable(error: BaseException) -> bool:
    """A deadlock, a serialization failure, SQLite's lock, a PostgreSQL connection lost
    before the unit's COMMIT was sent (nothing of it can have committed; the pool replaces
    the connection), or `_LeftAnEvent`. A connection lost during COMMIT is not: the unit may
    have committed."""
    if isinstance(error, (*_RETRYABLE, _LeftAnEvent)):
        return True
    if isinstance(error, CommitOutcomeUnknown):
        return False
    if is_database_unavailable(error) and not isinstance(error, TimeoutError):
        return True
    return isinstance(error, sqlite3.OperationalError) and "locked" in str(error)


def _pause_after(attempt: int) -> float:
    """A short random pause before attempt n + 1, growing with n."""
    return random.uniform(0.001, 0.005 * 2**attempt)  # noqa: S311


def _log_retry_after(attempt: int, error: BaseException | None) -> None:
    logger.warning(
        "write unit retried",
        extra={"attempt": attempt, "error": type(error).__name__},
    )


# tenacity's loop begins at the unit's second attempt (`Database.transact`)
def _pause(state: RetryCallState) -> float:
    return _pause_after(state.attempt_number + 1)


def _log_retry(state: RetryCallState) -> None:
    error = state.outcome.exception() if state.outcome is not None else None
    _log_retry_after(state.attempt_number + 1, error)


class _WriterFileLock:
    """An exclusive `flock` on `<database>-writer.lock`, held for each turn of SQLite units.

    Workers are separate processes; a process waiting on `flock` sleeps in the kernel (on a
    thread) and is woken when the lock is released. The lock belongs to the process (its open
    file), not to a coroutine: a waiter cancelled while its thread still waits leaves that
    wait to the next waiter of the process, and only when nobody claims it is the lock, once
    taken, given back. The file is opened per process (never inherited across a fork). It only
    orders the writers; SQLite's own database lock remains the guard of correctness.

    Kept hand-written rather than `filelock`, because every SQLite write turn takes it.
    Measured in one process on the shared 2-core machine (2,000 rounds, loaded):
    an uncontended acquire + release costs 18 µs here against 2,300 µs with
    `filelock.AsyncFileLock` (300 µs with its blocking `FileLock`); a waiter holds the lock
    0.1 ms after its release here (median; p99 0.6 ms: the kernel wakes it), 49 ms with
    filelock's default 50 ms polling and 0.4 ms (p99 14 ms) at 1 ms polling.
    """

    def __init__(self, path: str) -> None:
        self._path = path
        self._fd = -1
        self._pid = 0
        self._waiting: asyncio.Future[None] | None = None  # a thread blocked in flock
        self._claimed = False  # a coroutine awaits `_waiting` and will hold the lock

    def _descriptor(self) -> int:
        if self._pid != os.getpid():
            self._fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o600)
            self._pid = os.getpid()
            self._waiting, self._claimed = None, False
        return self._fd

    async def acquire(self) -> None:
        fd = self._descriptor()
        if self._waiting is None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                pass
            self._waiting = asyncio.ensure_future(asyncio.to_thread(fcntl.flock, fd, fcntl.LOCK_EX))
            self._waiting.add_done_callback(self._taken)
        self._claimed = True
        try:
            await asyncio.shield(self._waiting)
        except asyncio.CancelledError:
            self._claimed = False
            raise

    def _taken(self, waiting: asyncio.Future[None]) -> None:
        """The thread got the lock (runs before the waiter resumes): unclaimed, give it back."""
        self._waiting = None
        if not self._claimed and not waiting.cancelled() and waiting.exception() is None:
            self.release()

    def release(self) -> None:
        fcntl.flock(self._fd, fcntl.LOCK_UN)

    def close(self) -> None:
        if self._pid == os.getpid():
            os.close(self._fd)
        self._pid = 0


_Work = Callable[[Tx], Awaitable[object]]


def _under(deadline: Deadline, work: Callable[[Tx], Awaitable[T]]) -> Callable[[Tx], Awaitable[T]]:
    """`work` with the deadline on its Tx (read here, in the caller's task: an SQLite unit
    runs in the queue's)."""

    async def watched(tx: Tx) -> T:
        tx.deadline = deadline
        return await work(tx)

    return watched


class _SQLiteUnits:
    """This process's SQLite write units, run back to back by one task while it holds the
    writer's turn.

    Handed from one request's task to the next, the turn would wait for the next task's step
    on a busy event loop (and, between processes, for a thread's wake-up and the other loop),
    with the writer idle meanwhile. So `run` queues the unit, and the drainer task
    takes the turn and runs every queued unit, each its own transaction, without yielding
    between them, for up to `TURN_SECONDS` before it lets the other processes have the turn;
    each caller's task wakes with its unit's outcome. On two workers this raised SQLite's
    authorizations and purchases 5-10 % (docs/performance.md#sqlite-units-back-to-back);
    yielding to the loop between units loses more than it wins (491/s against 578).
    A process's units run in the order they were queued, never interleaved. A caller that
    leaves before its unit started takes it out of the queue; once started, the unit ends
    on its own (commits or rolls back), whatever became of its caller.
    """

    def __init__(
        self,
        writer: SQLiteWriter,
        turn: _WriterFileLock,
        key: str,
        commit_hooks: tuple[CommitHook, ...],
    ) -> None:
        self._writer, self._turn, self._key = writer, turn, key
        self._commit_hooks = commit_hooks
        self._pending: deque[tuple[_Work, asyncio.Future[object], float]] = deque()
        self._drainer: asyncio.Task[None] | None = None

    async def run(self, work: Callable[[Tx], Awaitable[T]]) -> tuple[T, list[Callable[[], None]]]:
        """`work`'s result and what its unit runs once committed (`work` raised: that
        error)."""
        future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        self._pending.append((work, future, time.perf_counter()))
        if self._drainer is None:
            self._drainer = asyncio.create_task(self._drain())
        return await future  # type: ignore[return-value]

    async def _drain(self) -> None:
        try:
            while self._pending:
                await self._turn.acquire()
                try:
                    held = time.perf_counter()
                    while self._pending and time.perf_counter() - held < TURN_SECONDS:
                        await self._one(*self._pending.popleft())
                finally:
                    self._turn.release()
                # flock is not fair: before taking it again, let a process that waits for it
                # (its thread was woken by the release) have it
                await asyncio.sleep(0)
        except BaseException as error:  # the turn failed, or shutdown: nobody waits forever
            while self._pending:
                _, future, _ = self._pending.popleft()
                if isinstance(error, asyncio.CancelledError):
                    future.cancel()
                elif not future.done():
                    future.set_exception(error)
            if not isinstance(error, Exception):
                raise  # cancelled (shutdown); an error of the turn went to the callers
        finally:
            self._drainer = None

    async def _one(self, work: _Work, future: asyncio.Future[object], queued: float) -> None:
        if future.cancelled():  # the caller gave up before its unit started
            return
        metrics.observe_writer_wait(time.perf_counter() - queued)
        try:
            async with self._writer.unit(self._key) as tx:
                done = await work(tx)
                await _before_commit(self._commit_hooks, tx)
        except Exception as error:
            if not future.done():
                future.set_exception(error)
        except BaseException:
            future.cancel()  # the drainer was stopped in the middle of this unit (shutdown)
            raise
        else:
            if not future.done():
                future.set_result((done, tx.after_commit))

    async def close(self) -> None:
        """Stop the drainer (its waiting callers get the cancellation)."""
        if self._drainer is not None:
            self._drainer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._drainer


class Database:
    """The database of one service instance: `reader` for reads, `transact` for write units;
    `commit_hooks` run at the end of each write unit, in order, before it commits (the
    composition root, `cardservice.runtime`, gives them)."""

    def __init__(
        self,
        settings: Settings,
        *,
        commit_hooks: Sequence[CommitHook],
        numbered_hooks: Sequence[NumberedHook] = (),
    ) -> None:
        url = settings.resolved_database_url
        self.settings = settings  # a background job's own knobs are read from them
        self.commit_hooks = tuple(commit_hooks)
        # run in the unit that numbers committed events, with their ids (events.outbox)
        self.numbered_hooks = tuple(numbered_hooks)
        self.is_sqlite = settings.is_sqlite
        self.key = url
        self._writer: SQLiteWriter | None = None
        self._pool: PostgresPool | None = None
        self._chain: Chain | None = None  # a `chained` view's held connection
        self.standby: Standby | None = None
        if self.is_sqlite:
            path = sqlite_path(url)
            if path in ("", ":memory:") or "mode=memory" in url:
                raise ConfigurationError(
                    "an in-memory SQLite database cannot be shared by the service's "
                    "connections: give a file (sqlite:///PATH)"
                )
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            self.reader: Reader = SQLiteReader(path, url)
            self._writer = SQLiteWriter(path)
            self._writer_file = _WriterFileLock(f"{path}-writer.lock")
            self._units: _SQLiteUnits | None = _SQLiteUnits(
                self._writer, self._writer_file, url, self.commit_hooks
            )
        else:
            size = max(settings.db_pool_size, READ_RESERVE + 1)
            self._pool = PostgresPool(
                _asyncpg_dsn(url),
                size,
                url,
                connect_timeout=settings.db_connect_timeout_seconds,
                statement_timeout=settings.db_statement_timeout_seconds,
            )
            self.reader = self._pool
            self._write_slots: contextlib.AbstractAsyncContextManager[Any] = asyncio.Semaphore(
                size - READ_RESERVE
            )
            self._units = None
        if settings.replica_url:
            self.standby = _standby(settings, self._pool)

    def reading_from(self, reader: Reader) -> Database:
        """This database with its reads on `reader` (one request's view; writes unchanged)."""
        view = copy.copy(self)
        view.reader = reader
        return view

    @asynccontextmanager
    async def chained(self, more: Callable[[], bool]) -> AsyncIterator[Database]:
        """PostgreSQL: this database with its write units (`transact`) run one after the
        other on one connection, held with its write slot until the block ends, each unit's
        COMMIT sent with the next one's BEGIN when `more()` says at that COMMIT that another
        follows (`sql.PostgresPool.chained`: a network lane's units, network/batches.py, a
        round trip shorter each under load). Its units must not overlap. SQLite: itself."""
        if self._pool is None:
            yield self
            return
        async with self._write_slots, self._pool.chained(more) as chain:
            view = copy.copy(self)
            view._chain, view._write_slots = chain, _HELD_SLOT
            yield view

    async def transact(self, work: Callable[[Tx], Awaitable[T]]) -> T:
        """Run `work` as one write unit; a deadlock, a serialization failure or a connection
        lost before COMMIT runs it again whole (after a short random pause), at most
        `UNIT_ATTEMPTS` times (tenacity). So does, with the commit hooks, a unit that set
        `Tx.events_written` (PostgreSQL skipped its hooks) and yet left an event without its
        data (a trigger's): the database's deferred check failed its COMMIT.

        The first attempt runs outside tenacity's loop, whose iteration, attempt manager and
        call state cost every unit 47 µs in a micro-benchmark, and a sandbox authorization
        154 µs in process (1,449 → 1,218 µs, blocks of 100 in turn, load 6-7.5:
        docs/performance.md#the-services-python-an-approval); only a unit that failed
        retryably enters it, for the attempts left."""
        try:
            return await self._attempt(work, with_hooks=False)
        except Exception as error:
            if not _is_retryable(error):
                raise
            _log_retry_after(1, error)
            await asyncio.sleep(_pause_after(1))
            with_hooks = isinstance(error, _LeftAnEvent)
        async for attempt in AsyncRetrying(
            stop=stop_after_attempt(UNIT_ATTEMPTS - 1),
            retry=retry_if_exception(_is_retryable),
            wait=_pause,
            before_sleep=_log_retry,
            reraise=True,
        ):
            with attempt:
                try:
                    done = await self._attempt(work, with_hooks)
                except _LeftAnEvent:
                    with_hooks = True
                    raise
        return done

    async def _attempt(self, work: Callable[[Tx], Awaitable[T]], with_hooks: bool) -> T:
        """One try at the unit; `_LeftAnEvent` when it skipped the commit hooks and its
        COMMIT failed on an event left without its data."""
        try:
            return await self._unit(work, with_hooks)
        except asyncpg.CheckViolationError as error:
            if with_hooks or error.constraint_name != EVENTS_COMPLETED:
                raise
            raise _LeftAnEvent from error

    async def _unit(self, work: Callable[[Tx], Awaitable[T]], with_hooks: bool = False) -> T:
        """`work` as one write unit, tried once; under a channel's answer deadline
        (`db/deadlines.py`), a unit that has not committed when the channel answers stops at
        its next statement (`AnsweredAlready`, rolled back)."""
        deadline = deadlines.current()
        if self._units is not None:
            if deadline is not None:
                work = _under(deadline, work)
            done, committed = await self._units.run(work)
        else:
            assert self._pool is not None
            hooks = self.commit_hooks

            async def unit(tx: Tx) -> T:
                tx.deadline = deadline
                done = await work(tx)
                if with_hooks or not tx.events_written:
                    await _before_commit(hooks, tx)
                return done

            if self._chain is not None:  # the chain's block holds the write slot
                done, tx = await self._pool.run(self.key, unit, self._chain)
            else:
                async with self._write_slots:
                    done, tx = await self._pool.run(self.key, unit)
            committed = tx.after_commit
        for then in committed:
            then()
        if self.standby is not None:
            await self.standby.pin_caller()
        return done

    async def warm(self, work: Callable[[Tx], Awaitable[None]], connections: int) -> None:
        """PostgreSQL: `connections` of the pool opened (at most its size), and `work` run on
        each in a transaction rolled back (its statements prepared before a request needs
        them: a process's first units took 0.3-0.5 s without,
        docs/performance.md#a-burst-on-one-account); SQLite: nothing (its one writer opens
        with the first unit)."""
        if self._pool is not None:
            await self._pool.warm(work, connections)

    @asynccontextmanager
    async def held(self, name: str) -> AsyncIterator[None]:
        """An exclusive lock on `name` held across write units until the block ends, waited
        for (a job that must run once at a time across processes, e.g. one clearing file's
        ingest): PostgreSQL's session advisory lock on a key hashed from `name`, on a
        connection of its own; SQLite: an exclusive `flock` on one of `HELD_BUCKETS` files
        beside the database (names that share a bucket take turns). Either is let go when
        the holding process dies, whatever killed it."""
        digest = hashlib.sha256(name.encode()).digest()
        if self._pool is not None:
            async with self._pool.held(int.from_bytes(digest[:8], "big", signed=True)):
                yield
            return
        bucket = int.from_bytes(digest[:2], "big") % HELD_BUCKETS
        fd = os.open(f"{sqlite_path(self.key)}-held-{bucket}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    await asyncio.sleep(HELD_POLL_SECONDS)
            yield
        finally:
            os.close(fd)  # lets the lock go

    def connections_in_use(self) -> int:
        """PostgreSQL connections checked out now (0 on SQLite)."""
        return self._pool.in_use() if self._pool is not None else 0

    async def dispose(self) -> None:
        if self._units is not None:
            await self._units.close()
        if self._writer is not None:
            self._writer_file.close()
            self._writer.close()
            assert isinstance(self.reader, SQLiteReader)
            await self.reader.close()
        if self.standby is not None:
            await self.standby.close()
        if self._pool is not None:
            await self._pool.close()


def _standby(settings: Settings, primary: PostgresPool | None) -> Standby:
    """The standby of `REPLICA_URL` (PostgreSQL only), after checking its settings."""
    if primary is None:
        raise ConfigurationError(
            "CARDSERVICE_REPLICA_URL names a PostgreSQL standby, and an SQLite database has "
            "none: unset it"
        )
    if not settings.replica_url.startswith(("postgresql://", "postgres://")):
        raise ConfigurationError("CARDSERVICE_REPLICA_URL must be a postgresql:// URL")
    if settings.replica_pin_seconds * 1000 < settings.replica_max_lag_ms + PROBE_TTL_SECONDS * 1000:
        raise ConfigurationError(
            "CARDSERVICE_REPLICA_PIN_SECONDS must outlast CARDSERVICE_REPLICA_MAX_LAG_MS plus "
            f"the lag measurement's {PROBE_TTL_SECONDS} s, or a caller could miss its own write"
        )
    logger.info(
        "standby reads on",
        extra={
            "routes": len(STANDBY_ROUTES),
            "max_lag_ms": settings.replica_max_lag_ms,
            "pin_seconds": settings.replica_pin_seconds,
        },
    )
    pins = Pins(settings.replica_pin_seconds, settings.redis_url)
    return Standby(
        _asyncpg_dsn(settings.replica_url),
        _asyncpg_dsn(settings.resolved_database_url),
        primary,
        settings.replica_max_lag_ms,
        pins,
    )


def _asyncpg_dsn(url: str) -> str:
    """A PostgreSQL URL (`postgresql+asyncpg://`, `postgres://`, …) as asyncpg takes it."""
    return "postgresql://" + url.split("://", 1)[1]
