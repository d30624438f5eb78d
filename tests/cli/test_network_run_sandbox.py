"""`cardservice network run` makes a user, funding and cards of its own: it refuses, exit 2 and
nothing written, unless the sandbox is on (docs/network.md, "What an acquirer-side tester
needs")."""

from __future__ import annotations

import subprocess
import sys

import pytest
from fastapi import FastAPI

from cardservice.config import Settings
from tests.cli.test_cli import cli_env

WRITTEN = ("users", "accounts", "cards", "transactions", "journal_entries", "audit_log")


def _network_run(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardservice", "network", "run", "--port", "9", "--seconds", "1"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("sandbox", ["0", None])
async def test_network_run_refuses_where_the_sandbox_is_off(
    app: FastAPI, settings: Settings, sandbox: str | None
) -> None:
    env = {k: v for k, v in cli_env(settings).items() if k != "CARDSERVICE_SANDBOX"}
    if sandbox is not None:
        env["CARDSERVICE_SANDBOX"] = sandbox
    done = _network_run(env)
    assert done.returncode == 2, done.stderr
    assert "CARDSERVICE_SANDBOX=1" in done.stderr and "nothing was written" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    for table in WRITTEN:
        assert await app.state.db.reader.value(f"SELECT count(*) FROM {table}") == 0, table
