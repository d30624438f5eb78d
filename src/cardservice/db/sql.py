"""Statements on the driver itself: the one way the service reads and writes its database.

Every read goes through a `Reader` (`db.reader`), every write through a `Tx`, the statements
of one write unit (`db.transact(work)`). There is no ORM at run time: the SQLAlchemy models in
`cardservice.models` declare the tables (and give their column lists), Alembic migrates them.

One SQL text serves both databases: placeholders are written `$1, $2, …` (PostgreSQL's) and
become SQLite's numbered `?1, ?2, …`; `FOR UPDATE` / `FOR NO KEY UPDATE` clauses are dropped
for SQLite, whose write unit holds the whole database (`BEGIN IMMEDIATE`). Parameters are
converted to what each database stores (SQLite: uuid → 32 hex digits, datetime →
`YYYY-MM-DD HH:MM:SS.ffffff` UTC, bool → 0/1); values read back go through `text_uuid`,
`iso_z`, `as_uuid`, `as_datetime` and `flag`.

* PostgreSQL: one asyncpg pool per process for reads and write units (`db.Database`), and
  with `REPLICA_URL` a second pool on the standby for the reads that may lag
  (`cardservice.db.replica`), behind the same `Reader` interface.
* SQLite: short reads run inline on the event loop thread on `query_only` connections (an
  indexed read takes microseconds, less than a hop to a thread would cost); reads that may
  walk many rows (`Reader.scan`) run on a thread, so a deep report page never stalls the other
  requests of the worker. Write units run inline on one connection per process, once the
  process holds the writer's turn (`db.Database`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import math
import re
import sqlite3
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any, Protocol, TypeVar

import asyncpg  # type: ignore[import-untyped]

from cardservice.db.deadlines import AnsweredAlready, Deadline
from cardservice.db.unavailable import CommitOutcomeUnknown, is_database_unavailable


class Row(Protocol):
    """A result row: by column name or position (asyncpg's Record, sqlite3.Row)."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...  # the values, in column order


_PLACEHOLDER = re.compile(r"\$(\d+)")
_FOR_UPDATE = re.compile(r"\s+FOR (NO KEY )?UPDATE(\s+OF\s+\w+(\s*,\s*\w+)*)?(\s+SKIP LOCKED)?")
SQLITE_READ_BUSY_TIMEOUT_MS = 5_000
SQLITE_WRITE_BUSY_TIMEOUT_MS = 30_000
T = TypeVar("T")

# What a unique (or other integrity) constraint raises on each driver.
INTEGRITY_ERRORS: tuple[type[Exception], ...] = (
    asyncpg.IntegrityConstraintViolationError,
    sqlite3.IntegrityError,
)


class Reader(Protocol):
    """Read statements outside any write unit (each sees the latest committed data)."""

    key: str  # the database, for what a process caches per database

    async def rows(self, sql: str, *args: Any) -> Sequence[Row]: ...

    async def row(self, sql: str, *args: Any) -> Row | None: ...

    async def value(self, sql: str, *args: Any) -> Any: ...

    async def scan(self, sql: str, *args: Any) -> Sequence[Row]:
        """`rows` of a statement that may walk many rows: kept off the event loop."""
        ...


class Tx(Protocol):
    """The statements of one write unit, `$n` SQL as for `Reader`. Rows come back by column
    name and by position; `dialect` is "postgresql" or "sqlite"."""

    key: str  # the database, for what a process caches per database
    dialect: str
    deadline: Deadline | None  # its channel's answer deadline: past it, no more statements
    # what runs once the unit committed, never if it rolled back (the metrics of what it
    # wrote: `ledger.entries.post_entry` counts its postings there)
    after_commit: list[Callable[[], None]]
    # statements without parameters (values written in, `pg_literal`) the unit runs last,
    # after its commit hooks: PostgreSQL sends them with its COMMIT, in the same round trip
    at_commit: list[str]
    # True while the unit's last writes are gathered for its COMMIT (`later`'s writes may
    # then join its round trip: `with_commit`)
    committing: bool
    # set by a unit's work that writes every event it makes with its data (an
    # authorization's: `transactions_insert`): PostgreSQL then skips the commit hooks (the
    # outbox's read of pending events); `db.Database.transact` says what if one is left
    events_written: bool

    async def rows(self, sql: str, *args: Any) -> Sequence[Row]: ...

    async def row(self, sql: str, *args: Any) -> Row | None: ...

    async def value(self, sql: str, *args: Any) -> Any: ...

    async def execute(self, sql: str, *args: Any) -> None: ...

    async def later(self, write: Write[Any], item: Any) -> None:
        """A write whose result nobody reads before the unit's next statement (its result
        worked out by the caller): PostgreSQL calls `write` with every item left for it since,
        in their order, just before the unit's next statement or its COMMIT, whichever comes
        first (the writes of a lane's requests: one statement; at the COMMIT, `committing`);
        SQLite at once, with this one."""
        ...

    async def with_commit(self, sql: str, *args: Any) -> None:
        """A statement whose rows nobody reads, sent in the round trip of the unit's COMMIT
        (`at_commit`): PostgreSQL prepares it once a connection (`PREPARE`) and runs it there
        by `EXECUTE` with its values written in; an error fails the COMMIT, and the unit."""
        ...


# a write left for later (`Tx.later`): it writes the items of a unit, one statement for all
Write = Callable[["Tx", list[T]], Awaitable[None]]


def dollar_quoted(text: str) -> str:
    """`text` as a PostgreSQL string constant in dollar quotes (`$q$…$q$`, a tag that first
    occurs in text + tag at its end: not in the text, nor made by its last characters and
    the tag): nothing in it is an escape, whatever the server's settings."""
    if "$" not in text:  # no tag can begin in it (the usual case: the loop below finds "$q$")
        return f"$q${text}$q$"
    tag, n = "$q$", 0
    while (text + tag).find(tag) != len(text):
        n += 1
        tag = f"$q{n}$"
    return f"{tag}{text}{tag}"


def pg_literal(value: object) -> str:
    """A value as a PostgreSQL constant for a statement sent without parameters
    (`Tx.at_commit`): NULL, an integer, or text dollar-quoted (cast to uuid or timestamptz for
    those); a list as an array's text, dollar-quoted, which the statement's parameter type
    reads (`EXECUTE`: `Tx.with_commit`)."""
    if value is None:
        return "NULL"
    if isinstance(value, list | tuple):
        return dollar_quoted("{" + ",".join(map(_array_element, value)) + "}")
    if isinstance(value, str):
        return dollar_quoted(value)
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, uuid.UUID):
        return f"{dollar_quoted(str(value))}::uuid"
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError("a timestamp is written aware (UTC)")
        return f"{dollar_quoted(value.isoformat())}::timestamptz"
    raise TypeError(f"no literal for {type(value).__name__}")


def _array_element(value: object) -> str:
    """An element of an array's text: NULL, a number or uuid as it is, anything else its text
    double-quoted (backslashes and quotes escaped). An approval's write renders ~60 of them
    in the network process: the whole rendering (`pg_literal`) was 6 % of that process's
    py-spy samples at 8 connections (2026-11-28), hence the common cases first."""
    if value is None:
        return "NULL"
    if isinstance(value, str):
        if "\\" in value or '"' in value:
            value = value.replace("\\", "\\\\").replace('"', '\\"')
        return f'"{value}"'
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, int | uuid.UUID | Decimal):
        return str(value)
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError("a timestamp is written aware (UTC)")
        return f'"{value.isoformat()}"'
    raise TypeError(f"no array element for {type(value).__name__}")


@functools.lru_cache(maxsize=64)
def _prepared_name(sql: str) -> str:
    """The name a statement is prepared under on every connection (`Tx.with_commit`)."""
    return "cs_" + hashlib.sha256(sql.encode()).hexdigest()[:24]


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


@functools.lru_cache(maxsize=512)
def insert_sql(
    table: str, columns: tuple[str, ...], rows: int = 1, suffix: str = "", start: int = 1
) -> str:
    """`INSERT INTO table (columns) VALUES ($start, …), (…) suffix` for `rows` rows; its
    arguments are the rows' values one row after the other (`row_args`)."""
    width = len(columns)
    values = ", ".join(
        "(" + ", ".join(f"${r * width + c + start}" for c in range(width)) + ")"
        for r in range(rows)
    )
    names = ", ".join(columns)
    return f"INSERT INTO {table} ({names}) VALUES {values}{suffix}"  # noqa: S608 - our names


@dataclass(frozen=True, slots=True)
class Insert:
    """Rows of `table` to insert (their `columns`), handed to a statement that writes them
    together with more (`ledger.entries.post_entry`); `then`: rows of another table written
    with them (a transaction's events), in the same statement on PostgreSQL."""

    table: str
    columns: tuple[str, ...]
    rows: Sequence[dict[str, Any]]
    then: Insert | None = None
    # PostgreSQL: each column's type, to send the rows as one array a column (`unnest_sql`)
    types: tuple[str, ...] | None = None

    def sql(self, suffix: str = "", start: int = 1) -> str:
        return insert_sql(self.table, self.columns, len(self.rows), suffix, start)

    def args(self) -> list[Any]:
        return row_args(self.columns, self.rows)

    def unnest_sql(self, start: int = 1) -> str:
        """PostgreSQL: the rows as one array a column, so that the statement's text is the
        same whatever their count (prepared once, its plan kept). Needs `types`."""
        assert self.types is not None
        arrays = ", ".join(f"CAST(${start + n} AS {kind}[])" for n, kind in enumerate(self.types))
        names = ", ".join(self.columns)
        return f"INSERT INTO {self.table} ({names}) SELECT * FROM unnest({arrays})"  # noqa: S608

    def unnest_args(self) -> list[list[Any]]:
        """The arguments of `unnest_sql`: one list a column."""
        return [[row[column] for row in self.rows] for column in self.columns]

    def shape(self) -> tuple[Any, ...]:
        """What inserts written as one (`merged`) share: table, columns, types, and those of
        their `then`."""
        then = None if self.then is None else self.then.shape()
        return (self.table, self.columns, self.types, then)


def merged(inserts: Sequence[Insert]) -> Insert:
    """Inserts of one `shape` as one: their rows in order, and their `then`'s (a lone one as it
    is: a unit of one request copies nothing)."""
    first = inserts[0]
    if len(inserts) == 1:
        return first
    assert all(insert.shape() == first.shape() for insert in inserts), "inserts of one shape"
    then = None
    if first.then is not None:
        then = merged([insert.then for insert in inserts if insert.then is not None])
    rows = [row for insert in inserts for row in insert.rows]
    return Insert(first.table, first.columns, rows, then, first.types)


async def write_insert(tx: Tx, insert: Insert) -> None:
    """The rows and the rows written with them: one statement on PostgreSQL (the first insert
    a data-modifying WITH of the second's), one each on SQLite (in process)."""
    then = insert.then
    if then is None:
        await tx.execute(insert.sql(), *insert.args())
    elif tx.dialect == "postgresql":
        first = insert.sql()
        second = then.sql(start=len(insert.columns) * len(insert.rows) + 1)
        await tx.execute(f"WITH w AS ({first}) {second}", *insert.args(), *then.args())
    else:
        await tx.execute(insert.sql(), *insert.args())
        await tx.execute(then.sql(), *then.args())


def in_list(count: int, start: int = 1) -> str:
    """`($start, …)` with `count` placeholders: the values of an `IN` list."""
    return "(" + ", ".join(f"${i}" for i in range(start, start + count)) + ")"


def row_args(columns: Sequence[str], rows: Sequence[dict[str, Any]]) -> list[Any]:
    """The arguments of `insert_sql(…, columns, len(rows))`."""
    return [row[column] for row in rows for column in columns]


# --- PostgreSQL ---------------------------------------------------------------------------


async def _nothing_to_reset(_connection: asyncpg.Connection) -> None:
    """Units leave no session state behind: skip asyncpg's reset query (a round trip per
    release). An open transaction is still rolled back by asyncpg itself."""


def _in_time(deadline: Deadline | None) -> None:
    """A unit whose channel has answered for it already (`db/deadlines.py`) stops at its next
    statement, and rolls back: it waited (for a lock, a connection, the writer's turn) past
    the answer, which said nothing was recorded."""
    if deadline is not None and deadline.missed:
        raise AnsweredAlready


async def _rolled_back(connection: asyncpg.Connection) -> None:
    with contextlib.suppress(Exception):  # a lost connection rolled it back
        await connection.execute("ROLLBACK")


class _Connection(asyncpg.Connection):  # type: ignore[misc]
    """The pool's connections: each knows the statements `Tx.with_commit` prepared on it."""

    __slots__ = ("prepared",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.prepared: set[str] = set()


class PostgresTx:
    """A write unit on an asyncpg connection inside its transaction."""

    dialect = "postgresql"

    def __init__(self, connection: asyncpg.Connection, key: str) -> None:
        self._connection, self.key = connection, key
        self.deadline: Deadline | None = None  # its channel's (`Database.transact`)
        self.after_commit: list[Callable[[], None]] = []
        self.at_commit: list[str] = []
        self.committing = False
        self.events_written = False
        self._later: dict[Write[Any], list[Any]] = {}  # by write, in the order first left

    async def rows(self, sql: str, *args: Any) -> Sequence[Row]:
        await self.written() if self._later else _in_time(self.deadline)
        return await self._connection.fetch(sql, *args)  # type: ignore[no-any-return]

    async def row(self, sql: str, *args: Any) -> Row | None:
        await self.written() if self._later else _in_time(self.deadline)
        return await self._connection.fetchrow(sql, *args)  # type: ignore[no-any-return]

    async def value(self, sql: str, *args: Any) -> Any:
        await self.written() if self._later else _in_time(self.deadline)
        return await self._connection.fetchval(sql, *args)

    async def execute(self, sql: str, *args: Any) -> None:
        await self.written() if self._later else _in_time(self.deadline)
        await self._connection.execute(sql, *args)

    async def later(self, write: Write[Any], item: Any) -> None:
        self._later.setdefault(write, []).append(item)

    async def with_commit(self, sql: str, *args: Any) -> None:
        name, prepared = _prepared_name(sql), self._connection.prepared
        if name not in prepared:  # once a connection: a statement outlives a rollback
            await self._connection.execute(f"PREPARE {name} AS {sql}")
            prepared.add(name)
        self.at_commit.append(f"EXECUTE {name}({', '.join(map(pg_literal, args))})")

    async def written(self) -> None:
        """Before a statement and before COMMIT: the unit still in time, and the writes left
        for later done (`Tx.later`), so that the statement sees them."""
        _in_time(self.deadline)
        while self._later:
            write, items = next(iter(self._later.items()))
            del self._later[write]
            await write(self, items)


class Chain:
    """The connection a caller holds for its write units (`PostgresPool.chained`)."""

    def __init__(self, more: Callable[[], bool]) -> None:
        self.more = more
        self._connection: asyncpg.Connection | None = None
        self._pool: asyncpg.Pool | None = None  # the held connection's

    async def connection(self, pool: asyncpg.Pool) -> asyncpg.Connection:
        """The held connection; a new one from the pool when there is none or it was lost."""
        if self._connection is not None and _lost(self._connection):
            await self._let_go_lost()
        if self._connection is None:
            self._connection, self._pool = await pool.acquire(), pool
        return self._connection

    def let_go(self) -> None:
        """The held connection is the pool's again (a COMMIT left to finish on it)."""
        self._connection = None

    async def end(self) -> None:
        """The held connection rolled back if a transaction was begun for a unit that never
        came, and given back to its pool (also while the pool closes: its close waits)."""
        if self._connection is not None and _lost(self._connection):
            await self._let_go_lost()
        connection, self._connection = self._connection, None
        if connection is None or self._pool is None:  # no unit took one, or it was lost
            return
        if connection.is_in_transaction():
            await _rolled_back(connection)
        await self._pool.release(connection)

    async def _let_go_lost(self) -> None:
        """The held connection was lost: given back to its pool unless the pool took it
        back itself (asyncpg does when it sees the connection close under a statement)."""
        connection, self._connection = self._connection, None
        if self._pool is not None and connection is not None and _held(connection):
            with contextlib.suppress(Exception):  # it is gone: the pool replaces it
                await self._pool.release(connection)


def _held(connection: asyncpg.Connection) -> bool:
    """Whether a pool's connection is still the caller's: asyncpg's pool takes a connection
    back by itself when it finds it closed, and its methods then raise `InterfaceError`."""
    try:
        connection.is_closed()
    except asyncpg.InterfaceError:
        return False
    return True


def _lost(connection: asyncpg.Connection) -> bool:
    """Whether a held connection can no longer run a unit: closed, or taken back."""
    return not _held(connection) or connection.is_closed()


class PostgresPool:
    """The process's one asyncpg pool: reads, and write units (`run`).

    `connect_timeout` bounds each new connection and `statement_timeout` each statement
    (asyncpg's `command_timeout`: on expiry it cancels the statement and raises
    TimeoutError), so a dead or unreachable server fails a request in seconds instead of
    holding it. COMMIT is the exception: it is never cancelled, by a timeout or by its
    caller. On a synchronous primary a COMMIT waits until the standby has the transaction,
    and a cancelled wait makes PostgreSQL commit locally without it ("canceling wait for
    synchronous replication"), a commit that a failover would lose."""

    def __init__(
        self,
        dsn: str,
        max_size: int,
        key: str,
        connect_timeout: float = 60.0,
        statement_timeout: float | None = None,
    ) -> None:
        self._dsn, self.max_size, self.key = dsn, max_size, key
        self._connect_timeout, self._statement_timeout = connect_timeout, statement_timeout
        self._pool: asyncpg.Pool | None = None
        self._opening = asyncio.Lock()
        self._committing: set[asyncio.Task[None]] = set()  # commits whose caller left

    async def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            async with self._opening:
                if self._pool is None:
                    self._pool = await asyncpg.create_pool(
                        self._dsn,
                        min_size=1,
                        max_size=self.max_size,
                        reset=_nothing_to_reset,
                        timeout=self._connect_timeout,
                        command_timeout=self._statement_timeout,
                        connection_class=_Connection,
                    )
        return self._pool

    async def run(
        self, key: str, work: Callable[[PostgresTx], Awaitable[T]], chain: Chain | None = None
    ) -> tuple[T, PostgresTx]:
        """`work(tx)` in a connection's transaction, and its result and Tx once committed
        (every write unit of the service comes here: one call, no context manager's generator
        between the work and its connection, docs/performance.md#a-units-fixed-python); rolled
        back on error. A COMMIT whose connection is lost raises `CommitOutcomeUnknown` (it may
        have committed); a caller cancelled during COMMIT leaves it to finish in the
        background, and the connection goes back to the pool once it has. `chain`: the unit
        runs on the chain's connection (`chained`), in the transaction its previous unit's
        COMMIT began when there is one, and its own COMMIT begins the next when the chain says
        one follows."""
        pool = self._pool or await self.pool()
        connection = await pool.acquire() if chain is None else await chain.connection(pool)
        release = chain is None
        try:
            if not connection.is_in_transaction():  # else a chain's previous COMMIT began it
                await connection.execute("BEGIN")
            tx = PostgresTx(connection, key)
            try:
                done = await work(tx)
                tx.committing = True
                await tx.written()
            except BaseException:
                await _rolled_back(connection)
                raise
            release = False  # `_committed` gives the connection back
            await self._committed(pool, connection, tx, chain)
            return done, tx
        finally:
            if release:
                await pool.release(connection)

    async def _committed(
        self,
        pool: asyncpg.Pool,
        connection: asyncpg.Connection,
        tx: PostgresTx,
        chain: Chain | None,
    ) -> None:
        """The unit's last statements and its COMMIT in one simple query (an error in one of
        them ends the query there, the unit rolled back: the BEGIN after it is not run), sent
        from a task of its own that no cancellation reaches; then the connection given back
        (a chain's stays held), or, when the caller was cancelled meanwhile, once the COMMIT
        has ended."""
        following = ("BEGIN",) if chain is not None and chain.more() else ()
        last = ";".join((*tx.at_commit, "COMMIT", *following))
        commit = asyncio.get_running_loop().create_task(connection.execute(last, timeout=math.inf))
        release = chain is None
        try:
            await asyncio.shield(commit)
        except asyncio.CancelledError:
            if chain is not None:
                chain.let_go()
            release = False
            self._release_after(commit, pool, connection)
            raise
        except Exception as error:
            if chain is not None and connection.is_in_transaction():
                # a statement before the COMMIT failed: the chain's next unit must not
                # find its connection in the aborted transaction (the pool's release
                # rolls back the others')
                await _rolled_back(connection)
            if is_database_unavailable(error):
                raise CommitOutcomeUnknown from error
            raise
        finally:
            if release:
                await pool.release(connection)

    @asynccontextmanager
    async def chained(self, more: Callable[[], bool]) -> AsyncIterator[Chain]:
        """One connection held for write units run one after the other (`run(…, chain)`)
        until the block ends: a unit's COMMIT is sent with the next unit's BEGIN, in one
        round trip, when `more()` says at its COMMIT that another follows — a unit a round
        trip shorter under load (a network lane's units, network/batches.py). A transaction
        begun for a unit that never came is rolled back when the block ends."""
        chain = Chain(more)
        try:
            yield chain
        finally:
            await chain.end()

    def _release_after(
        self, commit: asyncio.Future[str], pool: asyncpg.Pool, connection: asyncpg.Connection
    ) -> None:
        async def finish() -> None:
            with contextlib.suppress(Exception):
                await commit
            await pool.release(connection)

        task = asyncio.get_running_loop().create_task(finish())
        self._committing.add(task)
        task.add_done_callback(self._committing.discard)

    async def warm(self, work: Callable[[PostgresTx], Awaitable[None]], connections: int) -> None:
        """`connections` of the pool opened at once (at most its size), and `work` run on
        each in a transaction rolled back: the statements it runs prepared (asyncpg's
        statement cache, PostgreSQL's plan) on them before a request needs them. A
        connection that fails is the first request's to find."""
        pool = self._pool or await self.pool()
        opened = await asyncio.gather(
            *(pool.acquire() for _ in range(min(connections, self.max_size))),
            return_exceptions=True,
        )
        held = [c for c in opened if isinstance(c, asyncpg.pool.PoolConnectionProxy)]
        try:
            warming = (self._rolled_back(c, work) for c in held)
            await asyncio.gather(*warming, return_exceptions=True)
        finally:
            for connection in held:
                await pool.release(connection)

    async def _rolled_back(
        self, connection: asyncpg.Connection, work: Callable[[PostgresTx], Awaitable[None]]
    ) -> None:
        await connection.execute("BEGIN")
        try:
            await work(PostgresTx(connection, self.key))
        finally:
            await connection.execute("ROLLBACK")

    async def rows(self, sql: str, *args: Any) -> Sequence[Row]:
        pool: asyncpg.Pool = self._pool or await self.pool()
        return await pool.fetch(sql, *args)  # type: ignore[no-any-return]

    async def row(self, sql: str, *args: Any) -> Row | None:
        pool: asyncpg.Pool = self._pool or await self.pool()
        return await pool.fetchrow(sql, *args)  # type: ignore[no-any-return]

    async def value(self, sql: str, *args: Any) -> Any:
        pool: asyncpg.Pool = self._pool or await self.pool()
        return await pool.fetchval(sql, *args)

    async def scan(self, sql: str, *args: Any) -> Sequence[Row]:
        return await self.rows(sql, *args)  # the server walks the rows; the loop only waits

    @asynccontextmanager
    async def held(self, key: int) -> AsyncIterator[None]:
        """PostgreSQL's session advisory lock `key` held until the block ends, waited for
        without a statement timeout, on a connection of its own (not the pool's: its units
        go on meanwhile). A process that dies lets it go with its connection."""
        connection = await asyncpg.connect(self._dsn, timeout=self._connect_timeout)
        try:
            await connection.execute("SELECT pg_advisory_lock($1)", key, timeout=None)
            yield
        finally:
            with contextlib.suppress(Exception):  # closing the session lets the lock go too
                await connection.execute("SELECT pg_advisory_unlock($1)", key)
            await connection.close()

    def in_use(self) -> int:
        """Connections checked out now (for metrics and tests)."""
        if self._pool is None:
            return 0
        return int(self._pool.get_size() - self._pool.get_idle_size())

    async def close(self) -> None:
        if self._committing:
            await asyncio.gather(*self._committing, return_exceptions=True)
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()


# --- SQLite -------------------------------------------------------------------------------


@functools.lru_cache(maxsize=512)
def sqlite_sql(sql: str) -> str:
    """A `$n` statement as SQLite takes it: `?n` placeholders, no `FOR UPDATE`."""
    return _PLACEHOLDER.sub(r"?\1", _FOR_UPDATE.sub("", sql))


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


def _sqlite_rows(connection: sqlite3.Connection, sql: str, args: tuple[Any, ...]) -> list[Any]:
    """Run a `$n` statement on an SQLite connection; all its rows."""
    return connection.execute(sqlite_sql(sql), [_sqlite_param(a) for a in args]).fetchall()


def _connect(path: str, *pragmas: str) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    connection.row_factory = sqlite3.Row
    for pragma in pragmas:
        connection.execute(f"PRAGMA {pragma}")
    return connection


class SQLiteTx:
    """A write unit on the embedded database, inline (the process holds the writer's turn)."""

    dialect = "sqlite"

    def __init__(self, connection: sqlite3.Connection, key: str) -> None:
        self._connection, self.key = connection, key
        self.deadline: Deadline | None = None  # its channel's (`Database.transact`)
        self.after_commit: list[Callable[[], None]] = []
        self.at_commit: list[str] = []
        self.committing = False  # its `later` writes are done at once
        self.events_written = False

    async def rows(self, sql: str, *args: Any) -> Sequence[Row]:
        _in_time(self.deadline)
        return _sqlite_rows(self._connection, sql, args)

    async def row(self, sql: str, *args: Any) -> Row | None:
        _in_time(self.deadline)
        found = _sqlite_rows(self._connection, sql, args)
        return found[0] if found else None

    async def value(self, sql: str, *args: Any) -> Any:
        _in_time(self.deadline)
        found = _sqlite_rows(self._connection, sql, args)
        return found[0][0] if found else None

    async def execute(self, sql: str, *args: Any) -> None:
        _in_time(self.deadline)
        _sqlite_rows(self._connection, sql, args)

    async def later(self, write: Write[Any], item: Any) -> None:
        await write(self, [item])

    async def with_commit(self, sql: str, *args: Any) -> None:
        await self.execute(sql, *args)


class SQLiteReader:
    """Reads on `query_only` connections of the embedded database: inline, or on a thread for
    `scan`. A connection serves one statement at a time; idle ones are kept (`list.pop` and
    `append` are atomic, so threads share the list safely)."""

    def __init__(self, path: str, key: str) -> None:
        self._path, self.key = path, key
        self._idle: list[sqlite3.Connection] = []

    def _checkout(self) -> sqlite3.Connection:
        if self._idle:
            return self._idle.pop()
        return _connect(self._path, "query_only=ON", f"busy_timeout={SQLITE_READ_BUSY_TIMEOUT_MS}")

    def _run(self, sql: str, args: tuple[Any, ...]) -> list[sqlite3.Row]:
        connection = self._checkout()
        try:
            return _sqlite_rows(connection, sql, args)
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

    async def scan(self, sql: str, *args: Any) -> Sequence[Row]:
        """On a thread of the default executor, which takes its connection when it starts:
        scans waiting for a thread hold none, so the connections (each with its page cache)
        number at most the threads plus one inline."""
        return await asyncio.to_thread(self._run, sql, args)

    async def close(self) -> None:
        while self._idle:
            self._idle.pop().close()


class SQLiteWriter:
    """Write units on one connection of this process to the embedded database, run inline.
    The caller orders the writers (`db.Database`); `BEGIN IMMEDIATE` takes the database's
    write lock, which that order leaves free but for the rare outside writer. Foreign keys
    are checked at commit (`defer_foreign_keys`): the ledger writes an entry's postings
    before the entry itself (see `ledger.entries`)."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._connection: sqlite3.Connection | None = None

    def _open(self) -> sqlite3.Connection:
        if self._connection is None:
            self._connection = _connect(
                self._path,
                "journal_mode=WAL",
                "foreign_keys=ON",
                "synchronous=NORMAL",
                f"busy_timeout={SQLITE_WRITE_BUSY_TIMEOUT_MS}",
            )
        return self._connection

    @asynccontextmanager
    async def unit(self, key: str) -> AsyncIterator[SQLiteTx]:
        connection = self._open()
        connection.execute("BEGIN IMMEDIATE")
        try:
            connection.execute("PRAGMA defer_foreign_keys=ON")
            tx = SQLiteTx(connection, key)
            yield tx
            for statement in tx.at_commit:
                connection.execute(statement)
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
    """The file of an SQLite URL (`sqlite+aiosqlite:///PATH?…` or `sqlite:///PATH`)."""
    path = url.split(":///", 1)[1] if ":///" in url else ""
    return path.split("?", 1)[0]


# The server's own state, no table of the service's: whether the database answers (`/ready`),
# and the WAL positions a standby's lag is measured by (`cardservice.db.replica`).
_PRIMARY_POSITION = "SELECT pg_current_wal_lsn()::text"
_STANDBY_REPLAY = """
SELECT pg_is_in_recovery() AS standby,
       coalesce(pg_last_wal_replay_lsn() >= $1::text::pg_lsn, false) AS caught_up,
       (1000 * extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()))::float8
           AS behind_ms
"""


async def ping(reader: Reader) -> None:
    """One round trip to the database; raises when it does not answer."""
    await reader.value("SELECT 1")


async def wal_position(primary: Reader) -> str:
    """The primary's current WAL position (PostgreSQL)."""
    return str(await primary.value(_PRIMARY_POSITION))


async def replay_state(standby: Reader, position: str) -> Row | None:
    """Where a standby's replay stands against the primary's `position`: `standby` (still in
    recovery), `caught_up` (replayed that far), `behind_ms` (since the last commit replayed)."""
    return await standby.row(_STANDBY_REPLAY, position)


def escape_like(value: str) -> str:
    """`value` for a LIKE pattern with `\\` as the escape character."""
    return value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


async def take_turn(tx: Tx, key: int, *, wait: bool = True) -> bool:
    """One process's turn at a job the fleet runs once at a time, until the unit ends:
    PostgreSQL's advisory lock `key`, waited for or tried (False: another holds it); on
    SQLite the writer's turn is one already. The keys: events.repository.SEQUENCER_LOCK,
    ledger.repository.SEALER_LOCK, dictionaries.repository.TAG_COUNTER_LOCK."""
    if tx.dialect == "sqlite":
        return True
    if wait:
        await tx.execute("SELECT pg_advisory_xact_lock($1)", key)
        return True
    return bool(await tx.value("SELECT pg_try_advisory_xact_lock($1)", key))
