"""The database stopped and started again under a running listener: every 0100 is answered
`91` while it is down, found unreachable at once rather than waited for until the answer
deadline, nothing is half-written, and the listener recovers by itself
(docs/network.md#the-network-interface-iso-8583).

This test stops a PostgreSQL of its own: a throwaway cluster made with `initdb` in a
temporary directory, on a free port, run as the `postgres` user (never the machine's
:5432). It is skipped where `initdb` or that user is missing."""

from __future__ import annotations

import asyncio
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from cardservice.acquirer import messages
from cardservice.acquirer.client import NetworkClient, stans, transmitted_now
from cardservice.app import create_app
from cardservice.config import Settings
from cardservice.migrations import upgrade_database
from cardservice.network.listener import running_listener
from tests.conftest import ANSWER_SECONDS, TEST_KEY
from tests.factories import assert_ledger_consistent, balances
from tests.network.conftest import free_port, issue_card

pytestmark = pytest.mark.skipif(
    shutil.which("initdb") is None or shutil.which("pg_ctl") is None, reason="needs initdb"
)


def _as_postgres(*command: str) -> None:
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        pytest.skip("needs a postgres user to run a throwaway cluster")
    prefix = ["su", "postgres", "-c"] if os.geteuid() == 0 else ["sh", "-c"]
    subprocess.run([*prefix, " ".join(command)], check=True, capture_output=True, timeout=60)


class Cluster:
    def __init__(self, directory: Path, port: int) -> None:
        self.directory, self.port = directory, port

    def start(self) -> None:
        _as_postgres(
            "pg_ctl", "-D", str(self.directory / "data"), "-w", "-l", str(self.directory / "log"),
            "-o", f"'-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1'", "start",
        )  # fmt: skip

    def stop(self) -> None:
        _as_postgres("pg_ctl", "-D", str(self.directory / "data"), "-w", "-m", "fast", "stop")


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    directory = Path(tempfile.mkdtemp(prefix="cs-throwaway-pg-"))  # the postgres user enters
    os.chmod(directory, 0o777)
    _as_postgres("initdb", "-D", str(directory / "data"), "-A", "trust", "-U", "postgres")
    running = Cluster(directory, free_port())
    running.start()
    yield running
    running.stop()
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
async def app_on_cluster(cluster: Cluster, tmp_path: Path) -> AsyncIterator[FastAPI]:
    url = f"postgresql://postgres@127.0.0.1:{cluster.port}/postgres"
    await upgrade_database(Settings(database_url=url).resolved_database_url)
    settings = Settings(
        database_url=url, var_dir=tmp_path / "var", encryption_key=TEST_KEY, sandbox=True,
        rate_limit_per_minute=100_000, iso8583_port=free_port(),
        iso8583_answer_seconds=ANSWER_SECONDS,
    )  # fmt: skip
    app = create_app(settings)
    yield app
    await app.state.db.dispose()
    await app.state.rate_limiter.close()


async def test_database_stopped_answers_91_without_waiting_for_it_and_recovers(
    app_on_cluster: FastAPI, cluster: Cluster, caplog: pytest.LogCaptureFixture
) -> None:
    """The listener's answer deadline is the suite's minute here (tests/conftest.py), so a
    `91` the deadline gave would be logged `at its deadline` (and come a minute late): each
    `91` is the refused connection's, logged as the database unreachable."""
    app, numbers = app_on_cluster, stans()
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        _user, card = await issue_card(app, client)
    state, settings = app.state, app.state.settings
    async with running_listener(settings, state.db, state.cipher, state.outbound):
        network = await NetworkClient.connect("127.0.0.1", settings.iso8583_port)

        async def authorize() -> str:
            fields = messages.authorization(
                card.pan, card.expiry, 100, next(numbers), transmitted_now()
            )
            answer = await network.request("0100", fields)
            return str(answer.fields[39])

        assert await authorize() == "00"
        await asyncio.to_thread(cluster.stop)
        caplog.clear()
        try:
            for _ in range(5):
                assert await authorize() == "91"
        finally:
            await asyncio.to_thread(cluster.start)
        logged = [r.getMessage() for r in caplog.records if "answered 91" in r.getMessage()]
        assert len(logged) == 5 and not [m for m in logged if "at its deadline" in m], logged
        codes = []
        for _ in range(50):  # recovered by itself, within 10 s
            codes.append(await authorize())
            if codes[-1] == "00":
                break
            await asyncio.sleep(0.2)
        assert codes[-1] == "00", codes
        await network.close()
    assert (await balances(app, card.account))[1] == [10_000 - 2 * 110]  # nothing half-written
    await assert_ledger_consistent(app)
