"""docs/operations.md, "Deploying on PostgreSQL" and "Keys in a PKCS#11 token": the blocks run
as written, in bash from the repository's root, with `PREFIX` and `ETC` in a temporary
directory and the test's database; the lean install from uv.lock holds no dev package, and
`cardservice doctor` passes at the end. deploy/cardservice.env names every setting."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI

from cardservice.config import Settings
from tests.operator.test_operations_doc import DOC, section_blocks

ROOT = Path(__file__).parents[2]
DEPLOYING, TOKEN = "## Deploying on PostgreSQL", "## Keys in a PKCS#11 token"


def bash(script: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip


def clean_env(**values: str) -> dict[str, str]:
    """This process's environment without any CARDSERVICE_* setting, plus `values`."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith("CARDSERVICE_")}
    return {**kept, "UV_OFFLINE": "1", **values}  # uv from its cache: no traffic off the host


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The install block, run once for the module's tests."""
    prefix = tmp_path_factory.mktemp("deploy") / "opt"
    variables, install = section_blocks(DOC.read_text(), DEPLOYING)[:2]
    done = bash(f"{variables}\n{install}", clean_env(PREFIX=str(prefix)))
    assert done.returncode == 0, done.stderr[-3000:]
    yield prefix
    shutil.rmtree(prefix, ignore_errors=True)


def test_the_lean_install_holds_the_service_and_no_dev_package(installed: Path) -> None:
    python = installed / "venv" / "bin" / "python"
    for dev in ("pytest", "mypy", "ruff", "playwright", "opentelemetry.sdk"):
        missing = subprocess.run([python, "-c", f"import {dev}"], capture_output=True, check=False)
        assert missing.returncode == 1, dev
    served = subprocess.run(
        [installed / "venv/bin/cardservice", "--help"], capture_output=True, check=False
    )
    assert served.returncode == 0
    assert not (installed / "venv" / "bin" / "uv").exists()  # uv stays in its own venv


async def test_the_deployment_steps_work_as_written_and_doctor_passes(
    app: FastAPI, settings: Settings, installed: Path, tmp_path: Path
) -> None:
    variables, _install, configure, migrate = section_blocks(DOC.read_text(), DEPLOYING)[:4]
    etc = tmp_path / "etc"
    env = clean_env(PREFIX=str(installed), ETC=str(etc), DATABASE_URL=settings.database_url)
    done = await asyncio.to_thread(bash, f"{variables}\n{configure}\n{migrate}", env)
    assert done.returncode == 0, (done.stdout, done.stderr[-3000:])
    lines = done.stdout.splitlines()
    assert len(lines) == 8 and all(line.startswith("ok   ") for line in lines), done.stdout
    assert "ok   metrics token: set: /metrics needs it" in lines
    assert "ok   fingerprint key: pinned" in lines
    assert any(line.startswith("ok   mail: not configured") for line in lines)
    assert (etc / "secrets.env").stat().st_mode & 0o777 == 0o600
    secrets = (etc / "secrets.env").read_text()
    for name in ("ENCRYPTION_KEY", "FINGERPRINT_KEY", "CVK", "METRICS_TOKEN"):
        assert re.search(rf"^CARDSERVICE_{name}=\S+$", secrets, re.M), name


async def test_the_pkcs11_token_steps_work_as_written(
    app: FastAPI, settings: Settings, installed: Path, tmp_path: Path
) -> None:
    if shutil.which("softhsm2-util") is None:
        pytest.skip("softhsm2 is not installed (make test installs it: apt-get install softhsm2)")
    deploying = section_blocks(DOC.read_text(), DEPLOYING)
    [token] = section_blocks(DOC.read_text(), TOKEN)
    tokens = tmp_path / "tokens"
    tokens.mkdir()
    conf = tmp_path / "softhsm2.conf"
    conf.write_text(f"directories.tokendir = {tokens}\nobjectstore.backend = file\n")
    env = clean_env(
        PREFIX=str(installed),
        ETC=str(tmp_path / "etc"),
        DATABASE_URL=settings.database_url,
        SOFTHSM2_CONF=str(conf),
    )
    script = "\n".join([deploying[0], deploying[2], deploying[3], token])
    done = await asyncio.to_thread(bash, script, env)
    assert done.returncode == 0, (done.stdout, done.stderr[-3000:])
    doctor = done.stdout.splitlines()[-7:]
    assert all(line.startswith("ok   ") for line in doctor), done.stdout
    assert "ok   pkcs11: token 'cardservice' reachable, card-number key generation 1" in doctor


def test_the_environment_file_names_every_setting() -> None:
    text = (ROOT / "deploy" / "cardservice.env").read_text()
    named = set(re.findall(r"^#?\s*(CARDSERVICE_[A-Z0-9_]+)", text, re.M))
    wanted = {f"CARDSERVICE_{name.upper()}" for name in Settings.model_fields}
    assert wanted - named == set()
    assert named - wanted == set()
