"""`cardservice keys create | check | generate-cvk` on the local backend (issue 29)."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from pathlib import Path

import httpx
from fastapi import FastAPI

from cardservice.config import Settings
from tests.cli.test_cli import cli_env
from tests.conftest import TEST_CVK
from tests.factories import make_card, make_user


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardservice", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_embedded_set_up_creates_both_keys_in_its_key_file(tmp_path: Path) -> None:
    key_file = tmp_path / "keys" / "encryption.key"
    env = {
        **os.environ,
        "CARDSERVICE_DATABASE_URL": f"sqlite:///{tmp_path / 'cardservice.db.database'}",
        "CARDSERVICE_KEY_FILE": str(key_file),
        "CARDSERVICE_LOG_LEVEL": "WARNING",
    }
    for name in (
        "CARDSERVICE_ENCRYPTION_KEY", "CARDSERVICE_CVK", "CARDSERVICE_KEY_BACKEND",
        "CARDSERVICE_PVK", "CARDSERVICE_PIN_RSA_KEY",
    ):  # fmt: skip
        env.pop(name, None)
    created = cli(env, "keys", "create")
    assert created.returncode == 0, created.stderr
    assert f"card-number key: in {key_file}" in created.stdout
    assert "cvk: in" in created.stdout and "kcv " in created.stdout
    again = cli(env, "keys", "create")
    assert again.stdout == created.stdout  # nothing new the second time
    assert key_file.read_text().count("cvk:") == 1
    # the PIN keys too (docs/cards.md#pin-keys): a PVK and an RSA pair, made once, beside them
    assert "pin keys: pvk and rsa-" in created.stdout and str(key_file) in created.stdout
    text = key_file.read_text()
    assert text.count("pvk:") == 1 and text.count("pin-rsa:") == 1
    pin_key = cli(env, "keys", "generate-pin-key").stdout.strip()
    assert len(base64.b64decode(pin_key)) > 1000  # an RSA-2048 key's PKCS#8 DER
    generated = cli(env, "keys", "generate-cvk").stdout.strip()
    assert len(generated) == 32 and int(generated, 16) >= 0


async def test_check_reads_the_stored_numbers(
    app: FastAPI, client: httpx.AsyncClient, settings: Settings
) -> None:
    user = await make_user(app)
    for _ in range(2):
        await make_card(app, client, user)
    env = {**cli_env(settings), "CARDSERVICE_CVK": TEST_CVK}
    checked = cli(env, "keys", "check")
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.strip().startswith("ok: local keys; 2 stored values read (card 2,")
    created = cli(env, "keys", "create")
    assert created.returncode == 0 and "kcv 08D7B4" in created.stdout
    if not settings.is_sqlite:  # PostgreSQL has no embedded key file to make a CVK in
        no_cvk = cli({**env, "CARDSERVICE_CVK": ""}, "keys", "check")
        assert no_cvk.returncode == 2 and "CARDSERVICE_CVK must be set" in no_cvk.stderr
