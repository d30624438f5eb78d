"""`cardservice doctor` (docs/operations.md, "Deploying on PostgreSQL"): one line per check,
`ok` or `FAIL` and why, exit 1 on any failure; SQLite is reported, not failed. A complete
deployment and the PKCS#11 token are checked by the command as a process of its own (the
token's login is per process); the missing settings, by the same command in this process
(tests.cli.test_cli.Command)."""

from __future__ import annotations

import subprocess
import sys
import uuid

import httpx
import pytest
from cryptography.fernet import Fernet
from fastapi import FastAPI

from cardservice.config import Settings
from cardservice.db.sql import Tx
from cardservice.security import generate_key
from tests.cli.test_cli import Command, cli_env
from tests.factories import make_card, make_user
from tests.security.test_key_rotation import PINNED
from tests.softhsm import SoftHsm
from tests.webhooks.drive import post

CHECKS = (
    "database",
    "keys",
    "cvk",
    "fingerprint key",
    "pkcs11",
    "metrics token",
    "sandbox",
    "mail",
)


def complete(settings: Settings) -> dict[str, str]:
    """The environment of a complete deployment on the test's database."""
    return {
        **cli_env(settings),
        "CARDSERVICE_FINGERPRINT_KEY": PINNED,
        "CARDSERVICE_METRICS_TOKEN": "scrape-" + uuid.uuid4().hex,
        "CARDSERVICE_SANDBOX": "0",
    }


def doctor(env: dict[str, str]) -> tuple[int, dict[str, str]]:
    """Its exit status and its lines by check name."""
    done = subprocess.run(
        [sys.executable, "-m", "cardservice", "doctor"],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    return done.returncode, _lines(done.stdout, done.stderr)


async def doctor_here(
    command: Command, monkeypatch: pytest.MonkeyPatch, env: dict[str, str]
) -> tuple[int, dict[str, str]]:
    """`doctor(env)` run in this process: the same command, the same lines."""
    for name, value in env.items():
        if name.startswith("CARDSERVICE_"):
            monkeypatch.setenv(name, value)
    status, out, err = await command("doctor")
    return status, _lines(out, err)


def _lines(out: str, err: str) -> dict[str, str]:
    lines = {}
    for line in out.splitlines():
        verdict, _, rest = line.partition(" ")
        name, _, why = rest.strip().partition(": ")
        lines[name] = f"{verdict}: {why}"
    assert tuple(lines) == CHECKS, out + err
    return lines


async def test_a_complete_deployment_passes(
    app: FastAPI, client: httpx.AsyncClient, settings: Settings
) -> None:
    user = await make_user(app)
    await make_card(app, client, user)
    status, lines = doctor(complete(settings))
    assert status == 0, lines
    assert all(line.startswith("ok: ") for line in lines.values()), lines
    engine = "SQLite" if settings.is_sqlite else "PostgreSQL"
    assert (
        lines["database"].startswith(f"ok: {engine}") and "migrations at head" in lines["database"]
    )
    assert lines["keys"].startswith("ok: local; 1 stored values read (card 1,")
    assert lines["pkcs11"] == "ok: not used (CARDSERVICE_KEY_BACKEND=local)"


async def test_each_missing_setting_fails_and_says_why(
    app: FastAPI,
    client: httpx.AsyncClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    env, command = complete(settings), Command(settings, monkeypatch, capsys)

    async def doctor(env: dict[str, str]) -> tuple[int, dict[str, str]]:
        return await doctor_here(command, monkeypatch, env)

    status, lines = await doctor({**env, "CARDSERVICE_METRICS_TOKEN": ""})
    assert status == 1
    assert lines["metrics token"] == (
        "FAIL: CARDSERVICE_METRICS_TOKEN is not set: /metrics answers anyone who reaches the port"
    )
    assert [name for name, line in lines.items() if line.startswith("FAIL")] == ["metrics token"]
    status, lines = await doctor(
        {**env, "CARDSERVICE_FINGERPRINT_KEY": "", "CARDSERVICE_SANDBOX": "1"}
    )
    assert status == 1 and "not pinned" in lines["fingerprint key"]
    assert lines["sandbox"].startswith("FAIL: CARDSERVICE_SANDBOX is on")
    if not settings.is_sqlite:  # the embedded set-up keeps a CVK in its key file
        status, lines = await doctor({**env, "CARDSERVICE_CVK": ""})
        assert status == 1 and "CARDSERVICE_CVK must be set" in lines["cvk"]
    user = await make_user(app)
    made = await post(client, user, "/webhook-endpoints", {"url": "http://127.0.0.1:18499/h"})
    endpoint = made.json()["data"]["uuid"]

    async def lose(tx: Tx) -> None:  # a secret under a key no longer configured
        sealed = Fernet(generate_key().encode()).encrypt(b"whsec_gone")
        await tx.execute(
            "UPDATE webhook_endpoints SET secret_ciphertext = $1 WHERE uuid = $2",
            sealed,
            uuid.UUID(endpoint),
        )

    await app.state.db.transact(lose)
    status, lines = await doctor(env)
    assert status == 1
    assert lines["keys"] == (
        f"FAIL: webhook_endpoint {endpoint}: its value does not read under the configured keys"
    )


async def test_the_pkcs11_token_is_checked_when_configured(
    app: FastAPI,
    softhsm: SoftHsm,
    settings: Settings,
) -> None:
    token = ("CARDSERVICE_KEY_BACKEND", "CARDSERVICE_PKCS11_", "SOFTHSM2_CONF")
    on_token = {k: v for k, v in softhsm.env(settings).items() if k.startswith(token)}
    env = {**complete(settings), **on_token}
    status, lines = doctor(env)
    assert status == 0, lines
    assert lines["pkcs11"].startswith(f"ok: token {softhsm.label!r} reachable, card-number key")
    assert lines["cvk"] == "ok: in the PKCS#11 token"
    status, lines = doctor({**env, "CARDSERVICE_PKCS11_PIN": "0000"})
    assert status == 1 and "cannot open the PKCS#11 token" in lines["pkcs11"]
    assert "0000" not in "".join(lines.values())
