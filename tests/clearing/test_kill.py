"""A real `cardservice serve` process killed (SIGKILL) in the middle of booking a clearing
file; ingested again on a new process, every record is booked exactly once and `cardservice
ledger verify` holds (docs/network.md#clearing-files).

The file has 2,000 records in `make test` (the suite's 600 s per test);
`CARDSERVICE_KILL_RECORDS=20000` runs it at the size of the issue (`make stress`)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path

import httpx
from fastapi import FastAPI

from cardservice.config import Settings
from tests.clearing.helpers import ipm_file, presentment
from tests.conftest import TEST_CVK, TEST_KEY
from tests.factories import assert_ledger_consistent, make_card, make_user
from tests.live_server import _free_port, wait_ready
from tests.operator.helpers import operator_key

RECORDS = int(os.environ.get("CARDSERVICE_KILL_RECORDS", "2000"))
CARDS = 8


def _environment(settings: Settings) -> dict[str, str]:
    return {
        **os.environ,
        "CARDSERVICE_DATABASE_URL": settings.database_url,
        "CARDSERVICE_ENCRYPTION_KEY": TEST_KEY,
        "CARDSERVICE_CVK": TEST_CVK,
        "CARDSERVICE_VAR_DIR": str(settings.var_dir),
        "CARDSERVICE_RATE_LIMIT_PER_MINUTE": "1000000",
        "CARDSERVICE_LOG_LEVEL": "WARNING",
    }


def _serve(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-m", "cardservice", "serve", "--port", str(port), "--no-migrate"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    wait_ready(f"http://127.0.0.1:{port}", process)
    return process


async def _pans(app: FastAPI, client: httpx.AsyncClient) -> list[str]:
    user = await make_user(app)
    for _ in range(CARDS):
        await make_card(app, client, user, funds="100000", start_balance="5000")
    ciphertexts = await app.state.db.reader.rows("SELECT pan_ciphertext FROM cards")
    return [app.state.cipher.decrypt(row["pan_ciphertext"]) for row in ciphertexts]


async def _booked(app: FastAPI) -> int:
    found = await app.state.db.reader.value(
        "SELECT count(*) FROM clearing_records WHERE outcome IS NOT NULL"
    )
    return int(found or 0)


async def test_a_server_killed_mid_file_books_each_record_once_when_sent_again(
    app: FastAPI, client: httpx.AsyncClient, settings: Settings, tmp_path: Path
) -> None:
    pans = await _pans(app, client)
    key = await operator_key(app, "network")
    items = [presentment(pans[i % CARDS], 100 + i % 50) for i in range(RECORDS)]
    body = ipm_file("FILE-KILL", items)
    env, port = _environment(settings), _free_port()
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/octet-stream"}
    url = f"http://127.0.0.1:{port}/operator/clearing-files"
    server = _serve(env, port)
    posting = asyncio.create_task(
        asyncio.to_thread(httpx.post, url, content=body, headers=headers, timeout=600)
    )
    deadline = time.monotonic() + 300
    while await _booked(app) < RECORDS // 10 and time.monotonic() < deadline:  # noqa: ASYNC110 - another process books
        await asyncio.sleep(0.2)
    server.send_signal(signal.SIGKILL)
    server.wait(timeout=30)
    killed_at = await _booked(app)
    assert RECORDS // 10 <= killed_at < RECORDS, killed_at
    with suppress(httpx.TransportError):  # the connection died with the server
        await posting
    server = _serve(env, port)
    try:
        again = await asyncio.to_thread(httpx.post, url, content=body, headers=headers, timeout=600)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert again.status_code == 201, again.text
    report = again.json()["data"]
    assert report["presentments"]["force_posted"] == RECORDS and report["unmatched"] == []
    reader = app.state.db.reader
    posted = await reader.value(
        "SELECT count(DISTINCT clearing) FROM transactions WHERE channel = 'clearing'"
    )
    purchases = await reader.value("SELECT count(*) FROM transactions WHERE channel = 'clearing'")
    assert (posted, purchases) == (RECORDS, RECORDS)
    verified = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "cardservice", "ledger", "verify"],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert verified.returncode == 0 and verified.stdout.startswith("ok"), verified.stdout
    await assert_ledger_consistent(app)
