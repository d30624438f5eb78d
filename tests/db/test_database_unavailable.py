"""While PostgreSQL cannot be reached, requests answer 503 `database_unavailable` with
Retry-After (never a 500), and the instance keeps running."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator

import asyncpg
import httpx
import pytest
from fastapi import FastAPI

from cardservice.app import create_app
from cardservice.config import Settings
from cardservice.db.unavailable import is_database_unavailable
from tests.conftest import TEST_KEY


def _closed_port() -> int:
    """A port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
async def unreachable() -> AsyncIterator[FastAPI]:
    settings = Settings(
        database_url=f"postgresql://postgres@127.0.0.1:{_closed_port()}/gone",
        encryption_key=TEST_KEY,
        sandbox=True,
    )
    app = create_app(settings)
    yield app
    await app.state.db.dispose()


async def test_requests_answer_503_with_retry_after_while_the_database_is_down(
    unreachable: FastAPI,
) -> None:
    transport = httpx.ASGITransport(app=unreachable)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        headers = {"Authorization": "Bearer cs_" + "x" * 40}
        for method, path in (("GET", "/accounts"), ("POST", "/sandbox/deposits")):
            response = await client.request(method, path, headers=headers, json={})
            assert response.status_code == 503, response.text
            assert response.headers["retry-after"] == "2"
            assert response.json() == {
                "success": False,
                "message": "The database is unavailable; retry shortly.",
                "code": "database_unavailable",
            }
        assert (await client.get("/ready")).status_code == 503
        assert (await client.get("/health")).status_code == 200


def test_a_failed_statement_is_not_an_outage() -> None:
    try:
        raise OSError("cannot connect") from ConnectionRefusedError(111, "refused")
    except OSError as wrapped:
        assert is_database_unavailable(wrapped)
    assert is_database_unavailable(asyncpg.exceptions.ConnectionDoesNotExistError("closed"))
    assert is_database_unavailable(asyncpg.exceptions.CannotConnectNowError("starting up"))
    terminated = "cannot switch to state 15; another operation (2) is in progress"
    assert is_database_unavailable(asyncpg.exceptions.InternalClientError(terminated))
    assert not is_database_unavailable(asyncpg.exceptions.InternalClientError("other"))
    detached = "cannot call Connection.fetchval(): connection has been released back to the pool"
    assert is_database_unavailable(asyncpg.exceptions.InterfaceError(detached))
    assert not is_database_unavailable(asyncpg.exceptions.UniqueViolationError("duplicate"))
    assert not is_database_unavailable(asyncpg.exceptions.InterfaceError("bad argument"))
