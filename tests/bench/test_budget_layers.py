"""`bench.budget`'s attribution of py-spy's samples to layers (`python -m bench.profile
--budget`): the innermost frame a rule names decides, a statement run by the authentication
is the authentication's, idle waits are dropped."""

from __future__ import annotations

from pathlib import Path

from bench.budget import SERVER, _samples, layer_of

DRIVER = ["<module> (bench/profile.py:270)", "measure (bench/budget.py:280)"]
HANDLER = [
    "RequestResponseCycle.run_asgi (uvicorn/protocols/http/httptools_impl.py:409)",
    "FastAPI.__call__ (fastapi/applications.py:1193)",
    "RequestContextMiddleware.__call__ (/w/src/cardservice/http/middleware.py:58)",
    "get_request_handler.<locals>.app (fastapi/routing.py:511)",
]


def test_the_innermost_named_frame_decides() -> None:
    statement = [
        *DRIVER,
        *HANDLER,
        "get_transaction (/w/src/cardservice/transactions/routes.py:108)",
        "one_transaction (/w/src/cardservice/transactions/reports.py:154)",
        "PostgresPool.row (/w/src/cardservice/db/sql.py:221)",
        "Connection.fetchrow (asyncpg/connection.py:775)",
        "write (libc.so.6)",
    ]
    assert layer_of(statement) == "statement(s)"
    assert layer_of(statement[:-3]) == "record"
    assert layer_of(statement[:-4]) == "endpoint (route function)"
    assert layer_of([*DRIVER, *HANDLER]) == "FastAPI: app, request handler"
    assert layer_of([*DRIVER, *HANDLER[:3], "Logger.info (logging/__init__.py:1489)"]) == (
        "access log"
    )


def test_a_statement_of_the_authentication_is_the_authentications() -> None:
    stack = [
        *DRIVER,
        *HANDLER,
        "bearer_or_mfa (/w/src/cardservice/auth/dependencies.py:89)",
        "principal_for_token (/w/src/cardservice/auth/credentials.py:266)",
        "PostgresPool.row (/w/src/cardservice/db/sql.py:221)",
        "Connection.fetchrow (asyncpg/connection.py:775)",
    ]
    assert layer_of(stack) == "authentication"


def test_no_frame_of_ours_is_the_loop() -> None:
    assert layer_of([*DRIVER, "Loop__run (loop.c:20313)", "uv_run (core.c:464)"]) == SERVER


def test_idle_waits_are_dropped(tmp_path: Path) -> None:
    raw = tmp_path / "samples.txt"
    busy = ";".join([*DRIVER, *HANDLER])
    idle = ";".join([*DRIVER, "uv__io_poll (linux.c:1546)", "epoll_pwait (libc.so.6)"])
    raw.write_text(f"{busy} 7\n{idle} 90\n")
    assert _samples(raw) == {"FastAPI: app, request handler": 7}
