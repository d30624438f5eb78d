"""The card-testing guard's count under concurrency (docs/network.md#card-testing): a real
`cardservice serve --workers 2`, wrong CVV2s pipelined on several connections (the kernel spreads
them over both workers) at one card — exactly 5 are told `N7`, every other `59`; the card is frozen
once."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator

import httpx
import orjson
import pytest
from fastapi import FastAPI

from cardservice.acquirer import messages
from cardservice.acquirer.client import NetworkClient, stans, transmitted_now
from cardservice.config import Settings
from tests.factories import assert_ledger_consistent, balances
from tests.live_server import serve_env, wait_ready
from tests.network.conftest import issue_card

CONNECTIONS = 6
PER_CONNECTION = 4  # 24 wrong guesses in flight at once


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def iso_port(app: FastAPI, settings: Settings) -> Iterator[int]:
    """`cardservice serve --workers 2` on the test database; its ISO 8583 port."""
    port, iso_port = _free_port(), _free_port()
    env = serve_env(
        settings, CARDSERVICE_ISO8583_ANSWER_SECONDS=str(settings.iso8583_answer_seconds)
    )
    command = [sys.executable, "-m", "cardservice", "serve", "--workers", "2", "--port", str(port)]
    command += ["--iso8583-port", str(iso_port)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    try:
        wait_ready(f"http://127.0.0.1:{port}", process)
        yield iso_port
    finally:
        process.terminate()
        process.wait(timeout=90)  # two workers shut down slowly on a loaded machine


async def test_pipelined_wrong_guesses_on_two_workers_freeze_the_card_once(
    app: FastAPI, client: httpx.AsyncClient, iso_port: int
) -> None:
    _user, card = await issue_card(app, client)
    before = await balances(app, card.account)
    right = app.state.cipher.cvv2(card.pan, card.expiry)
    wrong = f"{(int(right) + 1) % 1000:03d}"
    numbers = stans()
    connections = [await NetworkClient.connect("127.0.0.1", iso_port) for _ in range(CONNECTIONS)]
    burst = [
        (
            network,
            messages.authorization(
                card.pan, card.expiry, 100, next(numbers), transmitted_now(), cvv2=wrong
            ),
        )
        for network in connections
        for _ in range(PER_CONNECTION)
    ]
    answers = await asyncio.gather(
        *(network.request("0100", fields, wait=60) for network, fields in burst)
    )
    codes = sorted(answer.fields[39] for answer in answers)
    assert codes == ["59"] * (len(burst) - 5) + ["N7"] * 5  # never a 6th guess told apart
    after = messages.authorization(
        card.pan, card.expiry, 100, next(numbers), transmitted_now(), cvv2=right
    )
    assert (await connections[0].request("0100", after, wait=60)).fields[39] == "59"
    for network in connections:
        await network.close()
    reader = app.state.db.reader
    declined = await reader.rows(
        "SELECT error_slug, count(*), sum(fee) FROM transactions WHERE card_uuid = $1"
        " GROUP BY error_slug",
        uuid.UUID(card.uuid),
    )
    frozen_events = [
        row["data"]
        for row in await reader.rows(
            "SELECT data FROM events WHERE object_uuid = $1 AND type = 'card.updated'",
            uuid.UUID(card.uuid),
        )
    ]
    assert sorted((slug, count, fees) for slug, count, fees in declined if slug) == [
        ("invalid_cvv2", 5, 0),
        ("suspected_fraud", len(burst) - 5 + 1, 0),
    ]
    assert [orjson.loads(data or "null")["frozen_reason"] for data in frozen_events] == [
        "suspected_fraud"
    ]
    assert await balances(app, card.account) == before
    await assert_ledger_consistent(app)
