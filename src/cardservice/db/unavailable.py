"""Which failures mean "the database cannot be reached now" (→ 503 `database_unavailable`).

A restart of PostgreSQL kills every open connection: the next statement on each fails with a
lost connection, and until the server accepts connections again every connect is refused or
told the server is starting. None of these is the request's fault, and the pools replace dead
connections on their own, so the client gets 503 with Retry-After and the instance keeps
serving. Anything else raised by the database stays a 500.

A write whose connection died may or may not have committed; clients retry purchases with
their `external_id`, which makes the retry safe.
"""

from __future__ import annotations

from collections.abc import Iterator

import asyncpg  # type: ignore[import-untyped]

# The exception types whose handler asks `is_database_unavailable`; the rest never are.
HANDLED: tuple[type[Exception], ...] = (
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
        if isinstance(error, _LOST):
            return True
        if isinstance(error, asyncpg.InterfaceError) and "closed" in str(error):
            return True
        if isinstance(error, asyncpg.exceptions.InternalClientError) and (
            _TERMINATED_WHILE_IDLE in str(error)
        ):
            return True
    return False
