"""What an operator sees of webhook deliveries: one log line for a replay's attempts (not
one per attempt), and `/metrics` series — attempts by endpoint and outcome, give-ups, the
first-attempt lag — counted by the delivery loop and summed over every process of a
`cardservice serve --workers 2`. No URL in any label."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from cardservice.config import Settings
from cardservice.models.base import utcnow
from cardservice.webhooks.worker import DeliveryWorker
from tests.factories import Caller, make_account, make_user
from tests.live_server import wait_ready
from tests.webhooks.drive import every_change, post
from tests.webhooks.receiver import Receiver

SAMPLE = re.compile(r"^(?P<name>[a-z_]+)(?:\{(?P<labels>.*)\})? (?P<value>\S+)$")


def value(text: str, name: str, **labels: str) -> float:
    """The sum of the samples of `name` whose labels include `labels`."""
    total = 0.0
    for line in text.splitlines():
        match = SAMPLE.match(line)
        if match is None or match["name"] != name:
            continue
        pairs = set(re.findall(r'(\w+)="([^"]*)"', match["labels"] or ""))
        if set(labels.items()) <= pairs:
            total += float(match["value"])
    return total


def attempts(text: str, endpoint: str, outcome: str) -> float:
    return value(text, "cardservice_webhook_attempts_total", endpoint=endpoint, outcome=outcome)


async def poll_metrics(http: httpx.AsyncClient, name: str, at_least: float, **labels: str) -> str:
    """The first scrape where `name` (with `labels`) reaches `at_least`, within 10 s."""
    async with asyncio.timeout(10):
        while value(text := await scrape(http), name, **labels) < at_least:  # noqa: ASYNC110
            await asyncio.sleep(0.05)
    return text


async def hook(client: httpx.AsyncClient, user: Caller, url: str) -> str:
    made = await post(client, user, "/webhook-endpoints", {"url": url})
    assert made.status_code == 201, made.text
    return str(made.json()["data"]["uuid"])


async def scrape(client: httpx.AsyncClient) -> str:
    answer = await client.get("/metrics")
    assert answer.status_code == 200
    return answer.text


def lines_of(log_capture: list[str], start: int, message: str) -> list[dict[str, Any]]:
    found = [json.loads(line) for line in log_capture[start:]]
    return [line for line in found if line["msg"] == message]


async def test_a_replay_is_logged_in_one_line(
    app: FastAPI,
    client: httpx.AsyncClient,
    receiver: Receiver,
    worker: DeliveryWorker,
    log_capture: list[str],
) -> None:
    user = await make_user(app)
    since = utcnow() - timedelta(seconds=1)
    await every_change(app, client, user)
    await client.get("/events", params={"limit": 100}, headers=user.headers)  # published
    endpoint = await hook(client, user, receiver.url)  # after the events: none delivered yet
    start = len(log_capture)
    replayed = await post(
        client, user, f"/webhook-endpoints/{endpoint}/replay", {"since": since.isoformat()}
    )
    count = replayed.json()["data"]["queued"]
    assert count >= 8
    await receiver.wait_for(count)
    async with asyncio.timeout(10):
        while not lines_of(log_capture, start, "webhook attempts"):  # noqa: ASYNC110
            await asyncio.sleep(0.05)
    [summary] = lines_of(log_capture, start, "webhook attempts")
    assert summary["attempts"] == summary["delivered"] == summary["events"] == count
    assert summary["endpoints"] == 1 and summary["given_up"] == summary["retrying"] == 0
    assert lines_of(log_capture, start, "webhook attempt") == []


async def test_failures_and_a_give_up_are_counted_by_endpoint(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver, worker: DeliveryWorker
) -> None:
    receiver.answer = lambda _n: 500
    user = await make_user(app)
    endpoint = await hook(client, user, receiver.url)
    before = await scrape(client)
    lag_before = value(before, "cardservice_webhook_first_attempt_lag_seconds_count")
    await make_account(app, user, funds="5")  # a deposit: one event, one delivery
    await receiver.wait_for(1)
    attempted = "cardservice_webhook_attempts_total"
    await poll_metrics(client, attempted, 1, endpoint=endpoint, outcome="http_status")  # recorded
    last = (
        "UPDATE webhook_deliveries SET attempts = 7, next_attempt_at = $1 WHERE endpoint_uuid = $2"
    )
    await app.state.db.transact(lambda tx: tx.execute(last, utcnow(), uuid.UUID(endpoint)))
    await receiver.wait_for(2)  # the eighth attempt, the last: given up
    given_up = "cardservice_webhook_given_up_total"
    text = await poll_metrics(client, given_up, 1, endpoint=endpoint)
    assert attempts(text, endpoint, "http_status") == 2
    assert attempts(text, endpoint, "delivered") == 0
    assert value(text, "cardservice_webhook_first_attempt_lag_seconds_count") == lag_before + 1
    durations = "cardservice_webhook_attempt_duration_seconds_count"
    assert value(text, durations, outcome="http_status") >= 2
    assert receiver.url not in text and f"127.0.0.1:{receiver.port}" not in text


@pytest.fixture
def served(app: FastAPI, settings: Settings) -> Iterator[str]:
    """`cardservice serve --workers 2` on the test database: two processes, each with its
    delivery loop; loopback receivers allowed (the sandbox is on)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    env = {
        **os.environ,
        "CARDSERVICE_DATABASE_URL": settings.database_url,
        "CARDSERVICE_ENCRYPTION_KEY": settings.encryption_key,
        "CARDSERVICE_SANDBOX": "1",
        "CARDSERVICE_VAR_DIR": str(settings.var_dir),
        "CARDSERVICE_STORAGE_DIR": str(settings.blob_dir),
        "CARDSERVICE_WORKER_POLL_SECONDS": "0.05",
        "CARDSERVICE_LOG_LEVEL": "WARNING",
    }
    command = [sys.executable, "-m", "cardservice", "serve", "--workers", "2", "--port", str(port)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, process)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


async def test_deliveries_of_every_process_are_on_metrics(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver, served: str
) -> None:
    user = await make_user(app)
    endpoint = await hook(client, user, receiver.url)
    for _ in range(4):
        await every_change(app, client, user)
    events = (await client.get("/events", params={"limit": 100}, headers=user.headers)).json()
    count = len(events["data"])
    await receiver.wait_for(count)
    fresh = httpx.Limits(max_keepalive_connections=0)  # each scrape a new connection: any worker
    async with httpx.AsyncClient(base_url=served, limits=fresh) as http:
        await poll_metrics(http, "cardservice_webhook_attempts_total", count)
        scrapes = [await scrape(http) for _ in range(6)]
    for text in scrapes:
        assert attempts(text, endpoint, "delivered") == count == len(receiver.received)
        assert value(text, "cardservice_webhook_first_attempt_lag_seconds_count") == count
        assert receiver.url not in text and user.token not in text
