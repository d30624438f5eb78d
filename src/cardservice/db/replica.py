"""Reads from a PostgreSQL hot standby where a little staleness is harmless.

With `CARDSERVICE_REPLICA_URL` set (PostgreSQL only: `db.Database` refuses it on SQLite), the
requests of the routes in `STANDBY_ROUTES` read through a `RoutedReader`: the same `Reader`
interface as `db.reader`, over a second asyncpg pool on the standby (the `Db` dependency hands
those routes a database whose `reader` is one). Every other read stays on the primary:
authentication (a revoked token fails at once), idempotency lookups, everything inside a write
unit, balances, reads by id, the delivery worker. docs/operations.md lists the routes and why.

A request of a listed route reads from the standby only when, at its first statement:
* the standby's lag, measured at most `PROBE_TTL_SECONDS` ago, is under `REPLICA_MAX_LAG_MS`;
* its caller committed no write unit in the last `REPLICA_PIN_SECONDS` (`Pins`: in this
  process and, with `REDIS_URL`, in Redis, so a write through one instance pins the caller on
  every instance; while Redis cannot be reached every caller counts as pinned).
Otherwise from the primary. The request keeps its choice for its later statements; a statement
the standby fails (down, restarting, a recovery conflict) runs again on the primary, and so do
the request's later ones: the client never sees the standby's trouble.

Lag: the primary's `pg_current_wal_lsn()`, then on the standby whether its replay reached that
position (lag 0: it holds every commit the primary held a moment ago), else the time since the
last commit it replayed (`pg_last_xact_replay_timestamp()`, an upper bound). From half the TTL
on, the first request to notice starts a new probe in the background (a loaded event loop makes
a probe slow: it has the other half to finish); a measurement older than the TTL sends reads to
the primary. No request waits for a probe. A standby read is thus at most max lag + TTL behind,
and the pin must outlast that (checked at start).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, TypeVar

from cardservice.db.redis import (
    REDIS_CONNECT_TIMEOUT_SECONDS,
    REDIS_RETRY_SECONDS,
    REDIS_TIMEOUT_SECONDS,
    WARNING_INTERVAL_SECONDS,
)
from cardservice.db.sql import PostgresPool, Reader, Row, replay_state, wal_position
from cardservice.db.unavailable import is_database_unavailable
from cardservice.observability import metrics

if TYPE_CHECKING:
    from redis.asyncio import Redis

T = TypeVar("T")
logger = logging.getLogger("cardservice.db.replica")

# Route templates (as in the metrics) whose reads may come from the standby; the reasons are
# in docs/operations.md ("Reads from the standby").
STANDBY_ROUTES = frozenset(
    {
        "/transaction/report",
        "/transaction/report.csv",
        "/events",
        "/dictionary/transaction-statuses",
        "/dictionary/transaction-errors",
        "/dictionary/account-statuses",
        "/dictionary/account-types",
        "/dictionary/transaction-tags",
        "/dictionary/transaction-tags/search",
        "/dictionary/transaction-tags/blocked",
        "/dictionary/fees",
        "/dictionary/bins",
        "/payment/currencies/{slug}",
    }
)
PROBE_TTL_SECONDS = 1.0  # a lag measurement is trusted this long
PROBE_REFRESH_SECONDS = 0.5  # and replaced from this age on, in the background
PROBE_TIMEOUT_SECONDS = 2.0
CONNECT_TIMEOUT_SECONDS = 2.0  # a standby that does not answer: fall back, do not hang
PIN_PREFIX = "cardservice:replica-pin:"
LOCAL_PINS_SWEEP = 10_000  # expired in-process pins are dropped once there are this many

# The request's state (`request.state`, set per request by the request middleware): the caller's
# uuid once authenticated. The unit of work pins its caller, the routed reader checks the pin.
REQUEST_STATE: ContextVar[dict[str, Any] | None] = ContextVar("request_state", default=None)


def current_caller() -> str | None:
    """The authenticated caller of the request being served (its uuid), if any."""
    state = REQUEST_STATE.get()
    user = state.get("user_uuid") if state is not None else None
    return str(user) if user else None


def _lag_ms(row: Row | None) -> float | None:
    """The standby's lag from the probe's row; None when it cannot be read from."""
    if row is None or not row["standby"]:
        return None  # promoted (or not a standby at all): it may have left the primary's history
    if row["caught_up"]:
        return 0.0
    behind: float | None = row["behind_ms"]
    return None if behind is None else max(0.0, behind)


class _Warnings:
    """One warning a minute for a part that keeps failing."""

    def __init__(self) -> None:
        self._at = -math.inf

    def warn(self, message: str, error: BaseException) -> None:
        now = time.monotonic()
        if now - self._at >= WARNING_INTERVAL_SECONDS:
            self._at = now
            logger.warning(message, extra={"error": type(error).__name__})


class Pins:
    """Callers who committed a write lately, who read from the primary for `seconds`."""

    def __init__(self, seconds: float, redis_url: str = "") -> None:
        self.seconds = seconds
        self._local: dict[str, float] = {}  # caller → monotonic time the pin ends
        self._redis: Redis | None = None
        self._redis_errors: tuple[type[Exception], ...] = (OSError,)
        if redis_url:
            # imported only with Redis configured: ~0.17 s of CPU of every process's start
            from redis.asyncio import Redis
            from redis.exceptions import RedisError

            self._redis_errors = (RedisError, OSError)
            self._redis = Redis.from_url(
                redis_url,
                socket_connect_timeout=REDIS_CONNECT_TIMEOUT_SECONDS,
                socket_timeout=REDIS_TIMEOUT_SECONDS,
            )
        self._redis_down_until = 0.0
        self._warnings = _Warnings()

    async def pin(self, user: str) -> None:
        now = time.monotonic()
        if len(self._local) >= LOCAL_PINS_SWEEP:
            self._local = {who: end for who, end in self._local.items() if end > now}
        self._local[user] = now + self.seconds
        if self._redis is not None and now >= self._redis_down_until:
            try:
                await self._redis.set(PIN_PREFIX + user, 1, px=math.ceil(self.seconds * 1000))
            except self._redis_errors as error:
                self._redis_failed(error)

    async def pinned(self, user: str) -> bool:
        now = time.monotonic()
        if self._local.get(user, 0.0) > now:
            return True
        if self._redis is None:
            return False
        if now < self._redis_down_until:
            return True  # a write through another instance cannot be seen: the safe side
        try:
            return bool(await self._redis.exists(PIN_PREFIX + user))
        except self._redis_errors as error:
            self._redis_failed(error)
            return True

    def _redis_failed(self, error: BaseException) -> None:
        self._redis_down_until = time.monotonic() + REDIS_RETRY_SECONDS
        self._warnings.warn("redis unreachable; standby-eligible reads go to the primary", error)

    async def close(self) -> None:
        if self._redis is not None:
            await self._redis.aclose()


class Standby:
    """The standby of one process: its pool, its measured lag and the pins."""

    def __init__(
        self, dsn: str, primary_dsn: str, primary: PostgresPool, max_lag_ms: int, pins: Pins
    ) -> None:
        self.pool = PostgresPool(dsn, primary.max_size, primary.key, CONNECT_TIMEOUT_SECONDS)
        self.max_lag_ms, self.pins = max_lag_ms, pins
        # The probe's own connection to each side: behind a saturated pool it would queue
        # with the requests and come back too late to be of use.
        self._probes = (
            PostgresPool(primary_dsn, 1, primary.key, CONNECT_TIMEOUT_SECONDS),
            PostgresPool(dsn, 1, primary.key, CONNECT_TIMEOUT_SECONDS),
        )
        self._lag_ms: float | None = None
        self._measured_at = -math.inf  # monotonic time the measurement in force started
        self._probe: asyncio.Task[float | None] | None = None
        self._warnings = _Warnings()

    async def route(self) -> str:
        """`fresh` (read from the standby), or why the primary: `measuring` (no recent
        measurement; one is started), `unavailable`, `lagging`, `pinned`."""
        age = time.monotonic() - self._measured_at
        if age > PROBE_REFRESH_SECONDS and (self._probe is None or self._probe.done()):
            self._probe = asyncio.get_running_loop().create_task(self.measure())
        if age > PROBE_TTL_SECONDS:
            return "measuring"
        if self._lag_ms is None:
            return "unavailable"
        if self._lag_ms >= self.max_lag_ms:
            return "lagging"
        user = current_caller()
        if user is not None and await self.pins.pinned(user):
            return "pinned"
        return "fresh"

    async def measure(self) -> float | None:
        """Measure the lag now (ms; None: the standby cannot be read from) and keep it."""
        started = time.monotonic()
        try:
            lag = await asyncio.wait_for(self._probe_once(), PROBE_TIMEOUT_SECONDS)
        except Exception as error:  # whatever failed, the standby is not usable
            self._warnings.warn("standby unreachable; its reads go to the primary", error)
            lag = None
        if started >= self._measured_at:  # a failure seen meanwhile is the newer fact
            self._lag_ms, self._measured_at = lag, started
            metrics.set_replica_lag(lag)
        return lag

    async def _probe_once(self) -> float | None:
        primary, standby = self._probes
        return _lag_ms(await replay_state(standby, await wal_position(primary)))

    def failed(self, error: BaseException) -> None:
        """A statement found the standby unreachable: the primary until the next probe."""
        self._warnings.warn("standby unreachable; its reads go to the primary", error)
        self._lag_ms, self._measured_at = None, time.monotonic()
        metrics.set_replica_lag(None)

    async def pin_caller(self) -> None:
        """The request's caller just committed a write: its reads stay on the primary."""
        user = current_caller()
        if user is not None:
            await self.pins.pin(user)

    async def close(self) -> None:
        if self._probe is not None and not self._probe.done():
            self._probe.cancel()
        await self.pins.close()
        for pool in (self.pool, *self._probes):
            await pool.close()


class RoutedReader:
    """The reader of one request of a `STANDBY_ROUTES` route: the standby's pool or the
    primary's, chosen at its first statement; every statement is counted by the database
    that answered it (`cardservice_replica_reads_total`)."""

    def __init__(self, primary: Reader, standby: Standby) -> None:
        self.key = primary.key
        self._primary, self._standby = primary, standby
        self._target: Reader | None = None
        self._reason = ""

    async def _read(self, statement: Callable[[Reader], Awaitable[T]]) -> T:
        if self._target is None:
            self._reason = await self._standby.route()
            fresh = self._reason == "fresh"
            self._target = self._standby.pool if fresh else self._primary
        if self._target is self._standby.pool:
            try:
                answer = await statement(self._standby.pool)
            except Exception as error:  # the primary answers instead
                if is_database_unavailable(error):
                    self._standby.failed(error)
                self._target, self._reason = self._primary, "failed"
            else:
                metrics.count_replica_read("standby", "fresh")
                return answer
        metrics.count_replica_read("primary", self._reason)
        return await statement(self._primary)

    async def rows(self, sql: str, *args: Any) -> Sequence[Row]:
        return await self._read(lambda reader: reader.rows(sql, *args))

    async def row(self, sql: str, *args: Any) -> Row | None:
        return await self._read(lambda reader: reader.row(sql, *args))

    async def value(self, sql: str, *args: Any) -> Any:
        return await self._read(lambda reader: reader.value(sql, *args))

    async def scan(self, sql: str, *args: Any) -> Sequence[Row]:
        return await self._read(lambda reader: reader.scan(sql, *args))
