"""Which failures mean "the database cannot be reached now" (→ 503 `database_unavailable`).

A restart of PostgreSQL kills every open connection: the next statement on each fails with a
lost connection, and until the server accepts connections again every connect is refused or
told the server is starting. None of these is the request's fault, and the pools replace dead
connections on their own, so the client gets 503 with Retry-After and the instance keeps
serving. Anything else raised by the database stays a 500.

A write unit whose connection died before its COMMIT was sent cannot have committed: the
database layer runs it again on a new connection (`Database.transact`). One whose connection
died while its COMMIT was in flight may or may not have committed (`CommitOutcomeUnknown`):
it is never run again by the service, and the caller is answered as for an outage (HTTP 503,
ISO 8583 `91`); the client's retry carries the same `external_id` or ISO message key, which
answers the first outcome if there was one and applies it once otherwise.
"""

from __future__ import annotations

from collections.abc import Iterator

import asyncpg  # type: ignore[import-untyped]


class CommitOutcomeUnknown(Exception):
    """The connection was lost while COMMIT was in flight: the unit may have committed."""


# The exception types whose handler asks `is_database_unavailable`; the rest never are.
HANDLED: tuple[type[Exception], ...] = (
    CommitOutcomeUnknown,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.exceptions.InternalClientError,
    ConnectionError,
    TimeoutError,
)
_LOST: tuple[type[BaseException], ...] = (
    asyncpg.PostgresConnectionError,  # connection does not exist, failure, rejected
    asyncpg.exceptions.OperatorInterventionError,  # admin shutdown, starting up, crash
    ConnectionError,  # refused, reset, broken pipe
    TimeoutError,  # connect timed out
)


# A shutting-down server sends FATAL (admin shutdown) on its idle connections too; until the
# socket closes, such a connection sits in asyncpg's error-consuming state (2), and the next
# statement on it fails with "cannot switch to state N; another operation (2) is in progress".
_TERMINATED_WHILE_IDLE = "another operation (2) is in progress"
# A connection lost while a unit holds it is detached from its pool proxy as soon as the loss
# is seen; the unit's next statement on the proxy then fails with this, not with a lost
# connection (the service never uses a connection it released itself).
_DETACHED_ON_LOSS = "connection has been released back to the pool"


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """The exception and what caused it (a connect error wrapped by the driver)."""
    seen: set[int] = set()
    pending: list[BaseException | None] = [exc]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        pending += [current.__cause__, current.__context__]


def is_database_unavailable(exc: BaseException) -> bool:
    """Whether `exc` is a lost or refused database connection, not a failed statement."""
    for error in _chain(exc):
        if isinstance(error, CommitOutcomeUnknown):
            return True
        if isinstance(error, _LOST):
            return True
        if isinstance(error, asyncpg.InterfaceError) and (
            "closed" in str(error) or _DETACHED_ON_LOSS in str(error)
        ):
            return True
        if isinstance(error, asyncpg.exceptions.InternalClientError) and (
            _TERMINATED_WHILE_IDLE in str(error)
        ):
            return True
    return False
