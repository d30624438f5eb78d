"""Schemathesis against the served OpenAPI document of a real server process: all checks,
a fixed seed and a bounded example count, once as the owner of the data and once as another
user (so object-level authorization is tried), on each database."""

from __future__ import annotations

import base64
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from cardservice.config import Settings
from tests.factories import Caller, authorize, make_card, make_user
from tests.live_server import wait_ready

CONFIG = Path(__file__).with_name("schemathesis.toml")
EXAMPLES = os.environ.get("CARDSERVICE_SCHEMATHESIS_EXAMPLES", "8")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def server(app: FastAPI, settings: Settings) -> Iterator[str]:
    """`cardservice serve` on the test database (emptied by the `app` fixture)."""
    port = _free_port()
    env = {
        **os.environ,
        "CARDSERVICE_DATABASE_URL": settings.database_url,
        "CARDSERVICE_ENCRYPTION_KEY": settings.encryption_key,
        "CARDSERVICE_PVK": settings.pvk,  # the PIN keys: GET /card/pin-key answers
        "CARDSERVICE_PIN_RSA_KEY": settings.pin_rsa_key,
        "CARDSERVICE_SANDBOX": "1",
        "CARDSERVICE_VAR_DIR": str(settings.var_dir),
        "CARDSERVICE_STORAGE_DIR": str(settings.blob_dir),
        "CARDSERVICE_RATE_LIMIT_PER_MINUTE": "1000000",
        "CARDSERVICE_AUTH_FAILURES_PER_MINUTE": "1000000",
        "CARDSERVICE_LOG_LEVEL": "WARNING",
        "CARDSERVICE_EMBEDDED_WORKER": "0",  # generated webhook URLs must never be called
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "cardservice", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, process)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


def _schemathesis(base: str, user: Caller) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "schemathesis.cli",
            "--config-file",
            str(CONFIG),
            "run",
            f"{base}/openapi.json",
            "--checks",
            "all",
            "--max-examples",
            EXAMPLES,
            "--seed",
            "20261122",
            "-H",
            f"Authorization: Bearer {user.token}",
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


async def test_schemathesis_finds_nothing(
    app: FastAPI, client: httpx.AsyncClient, server: str
) -> None:
    owner, intruder = await make_user(app), await make_user(app)
    _account, card = await make_card(app, client, owner)
    await authorize(client, owner, card, "5")
    pdf = base64.b64encode(b"%PDF-1.4\n%%EOF\n").decode()
    await client.post("/attachment", headers=owner.headers, json={"type": "invoice", "file": pdf})
    for user in (owner, intruder):
        result = _schemathesis(server, user)
        assert result.returncode == 0, result.stdout[-6000:]
        assert " passed" in result.stdout and "failures" not in result.stdout.split("Seed:")[-1]
