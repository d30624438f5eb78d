"""`GET /metrics` of a real `cardservice serve --workers 2`: every worker's counts in one
scrape, by route template and by ISO 8583 MTI and response code, and no credential, email,
code, card id or card number in any label. A worker adds its HTTP requests to the shared files
every `metrics.FLUSH_SECONDS`, so a scrape is repeated until the other worker's have arrived
(at most a few seconds), then checked exactly; the ISO listener's series are written as each
message is answered."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from prometheus_client.metrics import MetricWrapperBase
from prometheus_client.parser import text_string_to_metric_families

from cardservice.acquirer import messages
from cardservice.acquirer.client import NetworkClient, stans, transmitted_now
from cardservice.config import Settings
from cardservice.network import metrics
from cardservice.observability.metrics import FLUSH_SECONDS
from tests.factories import Caller, make_card, make_mfa_code, make_user
from tests.live_server import wait_ready
from tests.network.conftest import issue_card

RATE_LIMIT = 5  # per credential per minute, counted per worker (no Redis here)
ISO_CONNECTIONS = 6  # each a new connection: the kernel hands each to one of the workers
SAMPLE = re.compile(r"^(?P<name>[a-z_]+)(?:\{(?P<labels>.*)\})? (?P<value>\S+)$")


@dataclass
class Served:
    base: str
    metrics_dir: Path
    iso_port: int


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def _serving(settings: Settings, workers: int, **env: str) -> Iterator[Served]:
    """`cardservice serve --workers N --iso8583-port` on the test database, with a low
    per-credential limit and the extra `CARDSERVICE_*` settings `env`, until the block ends."""
    port, iso_port = _free_port(), _free_port()
    environment = {
        **os.environ,
        "CARDSERVICE_DATABASE_URL": settings.database_url,
        "CARDSERVICE_ENCRYPTION_KEY": settings.encryption_key,
        "CARDSERVICE_CVK": settings.cvk,
        "CARDSERVICE_SANDBOX": "1",
        "CARDSERVICE_VAR_DIR": str(settings.var_dir),
        "CARDSERVICE_STORAGE_DIR": str(settings.blob_dir),
        "CARDSERVICE_RATE_LIMIT_PER_MINUTE": str(RATE_LIMIT),
        "CARDSERVICE_LOG_LEVEL": "WARNING",
        **{f"CARDSERVICE_{name.upper()}": value for name, value in env.items()},
    }
    command = [sys.executable, "-m", "cardservice", "serve", "--workers", str(workers)]
    command += ["--port", str(port), "--iso8583-port", str(iso_port)]  # all on it: SO_REUSEPORT
    process = subprocess.Popen(command, env=environment, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, process)
        yield Served(base, settings.var_dir / "metrics" / str(port), iso_port)
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture
def server(app: FastAPI, settings: Settings) -> Iterator[Served]:
    """Two workers on the test database."""
    with _serving(settings, workers=2) as served:
        yield served


def _samples(text: str, name: str) -> dict[frozenset[tuple[str, str]], float]:
    """The samples of one metric name, keyed by their label pairs."""
    found = {}
    for line in text.splitlines():
        match = SAMPLE.match(line)
        if match is None or match["name"] != name:
            continue
        pairs = re.findall(r'(\w+)="([^"]*)"', match["labels"] or "")
        found[frozenset(pairs)] = float(match["value"])
    return found


def _value(text: str, name: str, **labels: str) -> float:
    wanted = set(labels.items())
    return sum(v for k, v in _samples(text, name).items() if wanted <= k)


async def test_metrics_sum_every_worker_by_route_and_iso8583_answer_without_secrets(
    app: FastAPI, client: httpx.AsyncClient, server: Served
) -> None:
    """One server for both parts (each start of two workers costs seconds): the HTTP
    traffic's counts first, checked exactly, then the ISO listener's and the unmatched path's,
    which the first part's traffic does not touch."""
    await _http_counts_by_route_template(app, client, server)
    await _unmatched_paths_and_iso8583_answers_without_the_path_or_card_number(app, client, server)


async def _http_counts_by_route_template(
    app: FastAPI, client: httpx.AsyncClient, server: Served
) -> None:
    owner, other = await make_user(app), await make_user(app)
    _account, card = await make_card(app, client, owner)
    code = await make_mfa_code(app, owner)
    async with _fresh_connections(server) as http:
        text, statuses = await _traffic(http, owner, other, card, code)
    assert len({p.name.rsplit("_", 1)[-1] for p in server.metrics_dir.glob("*.db")}) >= 2
    health = _value(text, "cardservice_http_requests_total", route="/health", status="200")
    assert health == 30
    assert _value(text, "cardservice_http_requests_total", route="/card/{cardUuid}") == 1
    assert _value(
        text, "cardservice_http_request_duration_seconds_count", route="/health", method="GET"
    ) == (30)
    assert _value(text, "cardservice_authorizations_total", outcome="pending", reason="none") == 1
    assert (
        _value(
            text,
            "cardservice_authorizations_total",
            outcome="declined",
            reason="insufficient_funds",
        )
        == 1
    )
    assert _value(text, "cardservice_rate_limit_refusals_total", limit="credential") == (
        statuses.count(429)
    )
    assert _value(text, "cardservice_http_requests_total", route="/card", status="429") == (
        statuses.count(429)
    )
    # committed postings: the approval's 3 (card, merchants, fees), the decline fee's 2
    assert _value(text, "cardservice_ledger_postings_total") == 5
    for secret in (owner.token, other.token, owner.email, other.email, code, card):
        assert secret not in text


def _fresh_connections(server: Served) -> httpx.AsyncClient:
    """A client opening a new connection per request: the kernel hands each to a worker."""
    limits = httpx.Limits(max_keepalive_connections=0)
    return httpx.AsyncClient(base_url=server.base, limits=limits)


async def _traffic(
    http: httpx.AsyncClient, owner: Caller, other: Caller, card: str, code: str
) -> tuple[str, list[int]]:
    """30 health checks, an approved and a declined authorization, a card read, one user
    over the rate limit; returns the scrape after them and that user's statuses."""
    for _ in range(30):
        assert (await http.get("/health")).status_code == 200
    approved = await http.post(
        "/sandbox/authorizations",
        headers=owner.headers,
        json={"card_uuid": card, "amount": 5, "currency": "USD", "merchant_name": "Shop"},
    )
    declined = await http.post(
        f"/sandbox/authorizations?_code={code}",
        json={"card_uuid": card, "amount": 99999, "currency": "USD", "merchant_name": "Shop"},
    )
    assert approved.json()["data"]["status"] == "pending"
    assert declined.json()["data"]["error"] == "insufficient_funds"
    assert (await http.get(f"/card/{card}", headers=owner.headers)).status_code == 200
    statuses = [
        (await http.get("/card", headers=other.headers)).status_code
        for _ in range(3 * RATE_LIMIT)  # two workers admit at most 2 x RATE_LIMIT
    ]
    assert 429 in statuses
    sent = {"/health": 30, "/sandbox/authorizations": 2, "/card/{cardUuid}": 1}
    sent["/card"] = 3 * RATE_LIMIT
    # every route's requests, not one's: the kernel may hand all of one route's connections to
    # one worker, which a scrape then shows while the other has not flushed its own yet
    text = await _scrape_when(
        http,
        lambda text: all(
            _value(text, "cardservice_http_requests_total", route=route) == count
            for route, count in sent.items()
        ),
    )
    return text, statuses


async def _scrape_when(http: httpx.AsyncClient, arrived: Callable[[str], bool]) -> str:
    """`GET /metrics` until `arrived(text)`: every worker has flushed what the test sent."""
    deadline = time.monotonic() + 5 * FLUSH_SECONDS
    while True:
        response = await http.get("/metrics")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/plain")
        if arrived(response.text) or time.monotonic() > deadline:
            return response.text
        await asyncio.sleep(FLUSH_SECONDS / 10)


def _iso_value(text: str, name: str, **labels: str) -> float:
    """The sum of the samples named `name` whose labels include `labels` (names with digits:
    prometheus_client's own parser)."""
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == name and labels.items() <= sample.labels.items()
    )


async def _unmatched_paths_and_iso8583_answers_without_the_path_or_card_number(
    app: FastAPI, client: httpx.AsyncClient, server: Served
) -> None:
    """A 404 path under `unmatched`; the ISO listener's answers of both workers by MTI and
    response code."""
    _user, card = await issue_card(app, client)
    unknown_pan = "4000000000000002"
    numbers = stans()
    for _ in range(ISO_CONNECTIONS):  # per connection: an echo, an approval, an unknown card
        network = await NetworkClient.connect("127.0.0.1", server.iso_port)
        sent = [("0800", messages.echo(next(numbers), transmitted_now()))]
        for pan in (card.pan, unknown_pan):
            fields = messages.authorization(pan, card.expiry, 100, next(numbers), transmitted_now())
            sent.append(("0100", fields))
        answers = [await network.request(mti, fields) for mti, fields in sent]
        assert [answer.fields[39] for answer in answers] == ["00", "00", "14"]
        await network.close()
    async with _fresh_connections(server) as http:
        assert (await http.get("/no-such-path/4111111111111111")).status_code == 404
        text = await _scrape_when(  # the network processes' counts come with their flush
            http,
            lambda text: (
                _value(text, "cardservice_http_requests_total", route="unmatched") >= 1
                and _iso_value(text, "cardservice_iso8583_messages_total") == 3 * ISO_CONNECTIONS
            ),
        )
        scrapes = [text, *[(await http.get("/metrics")).text for _ in range(3)]]
    assert _value(text, "cardservice_http_requests_total", route="unmatched", status="404") == 1
    assert "4111111111111111" not in text and "no-such-path" not in text
    for text in scrapes:  # whichever worker answers the scrape, it sums both
        counted = "cardservice_iso8583_messages_total"
        assert _iso_value(text, counted, mti="0800", response_code="00") == ISO_CONNECTIONS
        assert _iso_value(text, counted, mti="0100", response_code="00") == ISO_CONNECTIONS
        assert _iso_value(text, counted, mti="0100", response_code="14") == ISO_CONNECTIONS
        timed = "cardservice_iso8583_answer_duration_seconds"
        assert _iso_value(text, f"{timed}_count", mti="0100") == 2 * ISO_CONNECTIONS
        assert _iso_value(text, f"{timed}_sum", mti="0100") > 0
        assert card.pan not in text and unknown_pan not in text


@pytest.mark.parametrize("workers", [1, 2])
async def test_every_listener_series_has_its_samples_with_one_worker_as_with_several(
    app: FastAPI, settings: Settings, workers: int
) -> None:
    """The review's finding: with one worker (the default) an 0800 was answered `00` while
    `/metrics` showed no `cardservice_iso8583_messages_total` and `..._connections 0.0` (the
    one worker served the scrape from `serve`'s own process, which counted in memory; the
    network process, in files). Now, with 1 worker as with 2: the echo, the connection
    still open, a stranger's connection closed (`peer`: the allow-list is 127.0.0.1 and it
    comes from 127.0.0.2), an unreadable frame; and every family of `network/metrics.py`
    that has a sample to show shows it."""
    with _serving(settings, workers, iso8583_peers="127.0.0.1/32") as served:
        network = await NetworkClient.connect("127.0.0.1", served.iso_port)
        echo = await network.request("0800", messages.echo("000001", transmitted_now()))
        assert echo.fields[39] == "00"
        stranger = await NetworkClient.connect("127.0.0.1", served.iso_port, source="127.0.0.2")
        garbled = await NetworkClient.connect("127.0.0.1", served.iso_port)
        garbled.send_raw(b"not a message")
        for closed in (stranger, garbled):
            await asyncio.wait_for(closed.reading, 30)
        async with _fresh_connections(served) as http:
            text = await _scrape_when(
                http,
                lambda text: (
                    _iso_value(text, "cardservice_iso8583_unreadable_frames_total") == 1
                    and _iso_value(text, "cardservice_iso8583_connections") == 1
                    and _iso_value(text, "cardservice_iso8583_messages_total") == 1
                ),
            )
        await network.close()
        for client in (stranger, garbled):
            await client.close()
    counted = "cardservice_iso8583_messages_total"
    assert _iso_value(text, counted, mti="0800", response_code="00") == 1
    assert _iso_value(text, "cardservice_iso8583_answer_duration_seconds_count", mti="0800") == 1
    assert _iso_value(text, "cardservice_iso8583_connections") == 1  # the echo's, still open
    closed = "cardservice_iso8583_connections_closed_total"
    assert _iso_value(text, closed, bound="peer") == 1
    assert _iso_value(text, "cardservice_iso8583_unreadable_frames_total") == 1
    shown = {family.name for family in text_string_to_metric_families(text) if family.samples}
    unused = {metrics.LATE._name}  # no request here outlives its deadline
    listener = {
        family._name
        for family in vars(metrics).values()
        if isinstance(family, MetricWrapperBase) and family._name not in unused
    }
    assert listener <= shown, listener - shown
