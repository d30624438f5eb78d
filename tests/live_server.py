"""A real `cardservice serve` process on a test database, with the demo data loaded, on a
port of this project's range (18200-18299): for the browser and generated-client tests."""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import orjson

from cardservice.config import Settings
from cardservice.db.sql import sqlite_path
from tests.conftest import ANSWER_SECONDS, TEST_CVK, TEST_KEY

PORTS = range(18200, 18300)


@dataclass(frozen=True)
class LiveServer:
    base: str
    demo_token: str
    env: dict[str, str]

    def cli(self, *args: str) -> str:
        """Run `cardservice ARGS` on the same database; its stdout, stripped."""
        done = subprocess.run(
            [sys.executable, "-m", "cardservice", *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        return done.stdout.strip()


def _free_port() -> int:
    """A free port of the range, tried in random order: two runs on one machine (a
    developer's and CI's) rarely ask for the same one at the same moment."""
    for port in random.sample(PORTS, len(PORTS)):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 18200-18299")


# the program's payment details a top-up shows (docs/operations.md#where-top-ups-are-paid)
PAY_TO = {
    "bank-transfer:EUR": {
        "Beneficiary": "Cardservice Demo GmbH",
        "IBAN": "DE89 3704 0044 0532 0130 00",
    },
    "bank-transfer": {"Beneficiary": "Cardservice Demo Inc.", "Account number": "000123456789"},
}


def _environment(database_url: str, var_dir: Path) -> dict[str, str]:
    return {
        **os.environ,
        "CARDSERVICE_DATABASE_URL": database_url,
        "CARDSERVICE_ENCRYPTION_KEY": TEST_KEY,
        "CARDSERVICE_CVK": TEST_CVK,
        "CARDSERVICE_SANDBOX": "1",
        "CARDSERVICE_VAR_DIR": str(var_dir),
        "CARDSERVICE_RATE_LIMIT_PER_MINUTE": "1000000",
        "CARDSERVICE_AUTH_FAILURES_PER_MINUTE": "1000000",
        "CARDSERVICE_ISO8583_ANSWER_SECONDS": str(ANSWER_SECONDS),
        "CARDSERVICE_LOG_LEVEL": "WARNING",
        "CARDSERVICE_LOG_FORMAT": "json",
        "CARDSERVICE_TOPUP_PAY_TO": orjson.dumps(PAY_TO).decode(),
    }


def serve_env(settings: Settings, **more: str) -> dict[str, str]:
    """The environment of a `cardservice serve` process on the test's database and keys,
    warnings and errors only in its log; `more`: other CARDSERVICE_* variables."""
    return {
        **os.environ,
        "CARDSERVICE_DATABASE_URL": settings.database_url,
        "CARDSERVICE_ENCRYPTION_KEY": settings.encryption_key,
        "CARDSERVICE_CVK": settings.cvk,
        "CARDSERVICE_VAR_DIR": str(settings.var_dir),
        "CARDSERVICE_STORAGE_DIR": str(settings.blob_dir),
        "CARDSERVICE_LOG_LEVEL": "WARNING",
        **more,
    }


def wait_ready(base: str, process: subprocess.Popen[bytes], seconds: float = 120) -> None:
    """Until `/ready` answers 200 (up to `seconds`: a loaded 2-core machine starts a server
    and its workers slowly); a server that exited or never became ready fails the fixture,
    not a test after it. Every test that starts `cardservice serve` waits with this."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"cardservice serve exited with {process.returncode}")
        try:
            if httpx.get(f"{base}/ready").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"cardservice serve was not ready on {base} within {seconds:.0f} s")


@contextmanager
def demo_server(
    database_url: str, var_dir: Path, log_file: Path | None = None
) -> Iterator[LiveServer]:
    """`cardservice demo` (idempotent) then `cardservice serve` until the block ends. SQLite
    runs on a copy of the run's migrated file, which every test copies (tests/conftest.py).
    With `log_file`, the server logs at INFO (JSON lines) to that file."""
    var_dir.mkdir(parents=True, exist_ok=True)
    if database_url.startswith("sqlite"):
        copy = var_dir / "cardservice.db.database"
        shutil.copyfile(sqlite_path(database_url), copy)
        database_url = f"sqlite:///{copy}"
    env = _environment(database_url, var_dir)
    port = _free_port()
    log = subprocess.DEVNULL if log_file is None else log_file.open("w")
    server = LiveServer(f"http://127.0.0.1:{port}", "", env)
    server = LiveServer(server.base, server.cli("demo").splitlines()[-1], env)
    serve_env = env if log_file is None else {**env, "CARDSERVICE_LOG_LEVEL": "INFO"}
    process = subprocess.Popen(
        [sys.executable, "-m", "cardservice", "serve", "--port", str(port)],
        env=serve_env,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    try:
        wait_ready(server.base, process)
        yield server
    finally:
        process.terminate()
        process.wait(timeout=30)
        if log_file is not None:
            log.close()  # type: ignore[union-attr]
