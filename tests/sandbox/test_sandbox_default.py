"""docs/api.md#hardening: the sandbox is on by default only for SQLite served on a loopback
address."""

from __future__ import annotations

import os
import subprocess
import sys

import httpx
import pytest

from cardservice.app import create_app
from cardservice.config import Settings
from tests.live_server import wait_ready

SQLITE = "sqlite:///var/x.db"
POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
SERVE_PORT = 18120  # in this worktree's port range


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


def test_serve_on_loopback_turns_the_sandbox_on_for_sqlite_only(settings: Settings) -> None:
    """`cardservice serve` tells the app where it binds: no CARDSERVICE_SANDBOX given."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("CARDSERVICE_")}
    env.update(
        CARDSERVICE_DATABASE_URL=settings.database_url,
        CARDSERVICE_ENCRYPTION_KEY=settings.encryption_key,
        CARDSERVICE_VAR_DIR=str(settings.var_dir),
        CARDSERVICE_LOG_LEVEL="WARNING",
    )
    command = [sys.executable, "-m", "cardservice", "serve", "--port", str(SERVE_PORT)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{SERVE_PORT}"
    try:
        wait_ready(base, process)
        response = httpx.post(f"{base}/sandbox/deposits", json={})
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert response.status_code == (401 if settings.is_sqlite else 404)
    assert response.headers["x-content-type-options"] == "nosniff"
