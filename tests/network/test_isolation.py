"""Authorizations are never held up by other work (docs/network.md#isolation-from-other-work): while
a 5,000-line statement PDF renders on a real `cardservice serve --iso8583-port`, an 0800 echo sent
to the same server through a real socket is answered before the rendering ends.

The order is read from the server's own log, not from clocks: the PDF route logs
"rendering" before it renders and "rendered" right after, on the loop that then writes the
PDF. Were the echo answered by that loop, it could be answered only after the "rendered"
line was written; here it is answered while the log still says "rendering"."""

from __future__ import annotations

import asyncio
import io
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from pypdf import PdfReader

from cardservice.acquirer.client import NetworkClient, transmitted_now
from cardservice.config import Settings
from cardservice.db.sql import Tx
from cardservice.models.base import utcnow
from cardservice.transactions.deposits import deposit
from tests.factories import make_account, make_user
from tests.live_server import wait_ready

LINES = 5_000


@dataclass
class Served:
    base: str
    iso_port: int
    log: Path

    def lines(self, logger: str) -> list[str]:
        """The messages the server has logged so far under `logger`."""
        found = []
        for line in self.log.read_text().splitlines():
            if line.startswith("{"):
                record = json.loads(line)
                if record.get("logger") == logger:
                    found.append(record["msg"])
        return found


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def server(app: FastAPI, settings: Settings, tmp_path: Path) -> Iterator[Served]:
    """One HTTP worker and its network process on the test database, logging JSON at INFO."""
    port, iso_port, log = _free_port(), _free_port(), tmp_path / "server.log"
    env = {
        **os.environ,
        "CARDSERVICE_DATABASE_URL": settings.database_url,
        "CARDSERVICE_ENCRYPTION_KEY": settings.encryption_key,
        "CARDSERVICE_CVK": settings.cvk,
        "CARDSERVICE_VAR_DIR": str(settings.var_dir),
        "CARDSERVICE_ISO8583_ANSWER_SECONDS": str(settings.iso8583_answer_seconds),
        "CARDSERVICE_LOG_LEVEL": "INFO",
        "CARDSERVICE_LOG_FORMAT": "json",
    }
    command = [sys.executable, "-m", "cardservice", "serve", "--port", str(port)]
    command += ["--iso8583-port", str(iso_port), "--no-migrate"]
    with log.open("w") as sink:
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=sink)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, process, seconds=300)
        yield Served(base, iso_port, log)
    finally:
        process.terminate()
        process.wait(timeout=60)


async def _month_of(app: FastAPI, lines: int) -> tuple[str, object]:
    """A user whose account had `lines` deposits this month (each one statement line),
    through the deposit service, 500 to a unit."""
    user = await make_user(app)
    account = await make_account(app, user)
    for start in range(0, lines, 500):

        async def unit(tx: Tx, count: int = min(500, lines - start)) -> None:
            for _ in range(count):
                await deposit(tx, user.uuid, account, 1)

        await app.state.db.transact(unit)
    return user.token, account


async def _rendering(served: Served, pdf: asyncio.Task[httpx.Response]) -> None:
    """Until the server has logged that it started rendering (the request is in its hands)."""
    while not any("rendering" in m for m in served.lines("cardservice.statements.routes")):
        assert not pdf.done(), "the PDF was answered before its rendering was logged"
        await asyncio.sleep(0.02)


async def test_an_echo_is_answered_while_a_5000_line_statement_pdf_renders(
    app: FastAPI, server: Served
) -> None:
    token, account = await _month_of(app, LINES)
    entries = await app.state.db.reader.value("SELECT count(*) FROM journal_entries")
    network = await NetworkClient.connect("127.0.0.1", server.iso_port)
    async with httpx.AsyncClient(base_url=server.base, timeout=600) as http:
        path = f"/account/{account}/statements/{utcnow():%Y-%m}.pdf"
        pdf = asyncio.create_task(http.get(path, headers={"Authorization": f"Bearer {token}"}))
        await _rendering(server, pdf)
        echo = await network.request(
            "0800", {7: transmitted_now(), 11: "000001", 70: "301"}, wait=60
        )
        logged = server.lines("cardservice.statements.routes")
        document = await pdf
    await network.close()
    assert (echo.mti, echo.fields.get(39)) == ("0810", "00")
    assert [m for m in logged if "rendering" in m] == [f"statement PDF {utcnow():%Y-%m}: "
                                                      f"rendering {LINES} lines"]  # fmt: skip
    assert not [m for m in logged if "rendered" in m], "the echo waited for the rendering"
    assert document.status_code == 200, document.text
    pages = PdfReader(io.BytesIO(document.content)).pages
    assert len(pages) > 50 and f"Page 1 of {len(pages)}" in pages[0].extract_text()
    assert "50.00" in pages[-1].extract_text()  # the closing balance: 5,000 x 0.01
    assert await app.state.db.reader.value("SELECT count(*) FROM journal_entries") == entries
