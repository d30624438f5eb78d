"""API.md §8: the sandbox is on by default only for SQLite served on a loopback address."""

from __future__ import annotations

import httpx
import pytest

from cardservice.app import create_app
from cardservice.config import Settings

SQLITE = "sqlite:///var/x.db"
POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"


@pytest.mark.parametrize(
    ("database_url", "bind_host", "sandbox", "enabled"),
    [
        (SQLITE, "127.0.0.1", None, True),
        (SQLITE, "::1", None, True),
        (SQLITE, "localhost", None, True),
        (SQLITE, "0.0.0.0", None, False),
        (SQLITE, "192.168.1.5", None, False),
        (SQLITE, "", None, False),  # not served by `serve`: the bind is unknown
        (POSTGRES, "127.0.0.1", None, False),
        (POSTGRES, "0.0.0.0", True, True),
        (SQLITE, "127.0.0.1", False, False),
    ],
)
def test_sandbox_default(
    database_url: str, bind_host: str, sandbox: bool | None, enabled: bool
) -> None:
    settings = Settings(database_url=database_url, bind_host=bind_host, sandbox=sandbox)
    assert settings.sandbox_enabled is enabled


async def test_public_sqlite_server_has_no_sandbox_routes(settings: Settings) -> None:
    public = settings.model_copy(update={"sandbox": None, "bind_host": "0.0.0.0"})
    app = create_app(public)
    transport = httpx.ASGITransport(app=app)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            response = await http.post("/sandbox/deposits", json={})
    finally:
        await app.state.db.dispose()
        await app.state.rate_limiter.close()
    assert response.status_code == 404
