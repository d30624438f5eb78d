"""Reads from a real PostgreSQL hot standby (`CARDSERVICE_REPLICA_URL`, cardservice.db.replica).

A primary and its streaming standby are made once for the module with the fleet's own code
(`scripts/fleet/clusters.py`) under a temporary directory on free ports. What the standby
answers is observed, not assumed: with WAL replay paused on it, a row committed on the primary
is missing only from the standby's answer, so a stale answer proves which database served it.
Writes made outside any request (the factories' units) pin nobody; writes made through the API
pin their caller.
"""

from __future__ import annotations

import asyncio
import shutil
import socket
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import asyncpg
import httpx
import pytest
from fastapi import FastAPI
from prometheus_client import REGISTRY

from cardservice.app import create_app
from cardservice.config import Settings
from cardservice.db import replica
from cardservice.db.database import ConfigurationError
from cardservice.db.sql import Tx
from cardservice.ledger.minor_units import to_minor
from cardservice.migrations import upgrade_database
from cardservice.transactions.deposits import deposit
from scripts.fleet import clusters
from tests.conftest import DATABASES, TEST_KEY
from tests.factories import Caller, authorize, make_account, make_card, make_user

DATABASE = "cardservice"
REPORT = "/transaction/report"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class Pair:
    primary: clusters.Cluster
    standby: clusters.Cluster

    @property
    def primary_url(self) -> str:
        return self.primary.dsn(DATABASE)

    @property
    def standby_url(self) -> str:
        return self.standby.dsn(DATABASE)


@pytest.fixture(scope="module")
def pair() -> Iterator[Pair]:
    """A migrated primary and its hot standby (slot `test_standby`), for the module."""
    if "postgresql" not in DATABASES:
        pytest.skip("PostgreSQL tests not selected")
    if not clusters.available():
        pytest.skip("initdb, pg_ctl or pg_basebackup missing")
    root = Path(tempfile.mkdtemp(prefix="cs-replica-"))
    primary = clusters.Cluster("primary", _free_port(), root)
    standby = clusters.Cluster("standby", _free_port(), root)
    try:
        primary.prepare_root()
        primary.init_primary(clusters.primary_conf(primary.port, root))
        primary.start()
        primary.psql(f'CREATE DATABASE "{DATABASE}"')
        made = Pair(primary, standby)
        asyncio.run(upgrade_database(Settings(database_url=made.primary_url).resolved_database_url))
        standby.clone_standby(primary, "test_standby")
        standby.start()
        yield made
    finally:
        standby.stop()
        primary.stop()
        shutil.rmtree(root, ignore_errors=True)


def _settings(pair: Pair, tmp_path: Path, **replica_settings: object) -> Settings:
    return Settings(
        database_url=pair.primary_url,
        replica_url=pair.standby_url,
        var_dir=tmp_path / "var",
        storage_dir=tmp_path / "blobs",
        encryption_key=TEST_KEY,
        sandbox=True,
        rate_limit_per_minute=100_000,
        auth_failures_per_minute=100_000,
        **replica_settings,  # type: ignore[arg-type]
    )


@pytest.fixture
def trusted_lag(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lag measurement stays in force until the test measures again (`measure()`): which
    database serves a read then depends on the state the test set up, not on the clock."""
    monkeypatch.setattr(replica, "PROBE_TTL_SECONDS", 3600.0)
    monkeypatch.setattr(replica, "PROBE_REFRESH_SECONDS", 3600.0)


async def _app(settings: Settings) -> FastAPI:
    return create_app(settings)


@pytest.fixture
async def served(pair: Pair, tmp_path: Path, trusted_lag: None) -> AsyncIterator[FastAPI]:
    """The service on the pair: reads may lag a minute, a caller who wrote is pinned 2 h."""
    app = await _app(_settings(pair, tmp_path, replica_max_lag_ms=60_000, replica_pin_seconds=7200))
    yield app
    await app.state.db.dispose()
    await app.state.rate_limiter.close()


async def _client(app: FastAPI) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return httpx.AsyncClient(transport=transport, base_url="http://testserver")


async def _one(dsn: str, sql: str) -> object:
    connection = await asyncpg.connect(dsn)
    try:
        return await connection.fetchval(sql)
    finally:
        await connection.close()


async def caught_up(pair: Pair) -> None:
    """Wait until the standby replayed everything the primary has written so far."""
    position = await _one(pair.primary_url, "SELECT pg_current_wal_lsn()::text")
    check = f"SELECT pg_last_wal_replay_lsn() >= '{position}'::pg_lsn"
    for _ in range(600):
        if await _one(pair.standby_url, check):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the standby did not catch up in 30 s")


async def pause_replay(pair: Pair) -> None:
    await caught_up(pair)
    await _one(pair.standby_url, "SELECT pg_wal_replay_pause()")
    state = await _one(pair.standby_url, "SELECT pg_get_wal_replay_pause_state()")
    assert state in ("paused", "pause requested")  # either way, nothing later is replayed


async def resume_replay(pair: Pair) -> None:
    await _one(pair.standby_url, "SELECT pg_wal_replay_resume()")
    await caught_up(pair)


async def outside_deposit(app: FastAPI, user: Caller, account: uuid.UUID, amount: str) -> str:
    """A deposit committed outside any request (no caller is pinned); its transaction uuid."""

    async def unit(tx: Tx) -> str:
        record = await deposit(tx, user.uuid, account, to_minor(Decimal(amount)))
        return str(record["uuid"])

    done: str = await app.state.db.transact(unit)
    return done


def reads(target: str, reason: str) -> float:
    found = REGISTRY.get_sample_value(
        "cardservice_replica_reads_total", {"target": target, "reason": reason}
    )
    return found or 0.0


async def report_total(client: httpx.AsyncClient, user: Caller) -> int:
    response = await client.get(REPORT, headers=user.headers)
    assert response.status_code == 200, response.text
    return int(response.json()["meta"]["total"])


async def test_a_fresh_standby_serves_eligible_reads_and_the_rest_stays_on_the_primary(
    served: FastAPI, pair: Pair
) -> None:
    user = await make_user(served)
    account = await make_account(served, user, funds="10")
    await pause_replay(pair)
    try:
        late = await outside_deposit(served, user, account, "5")
        lag = await served.state.db.standby.measure()
        assert lag is not None
        assert lag < 60_000
        before = reads("standby", "fresh")
        async with await _client(served) as client:
            # The report may lag: the standby answers without the late deposit.
            assert await report_total(client, user) == 1
            assert reads("standby", "fresh") > before
            # A read by id and a balance stay on the primary: both see it.
            one = await client.get(f"/transaction/{late}", headers=user.headers)
            assert one.status_code == 200, one.text
            accounts = await client.get("/accounts", headers=user.headers)
            assert accounts.json()["data"]["items"][0]["balance"] == 15
            scrape = (await client.get("/metrics")).text
        assert "cardservice_replica_lag_seconds" in scrape
        assert 'cardservice_replica_reads_total{reason="fresh",target="standby"}' in scrape
    finally:
        await resume_replay(pair)
    await served.state.db.standby.measure()
    async with await _client(served) as client:
        assert await report_total(client, user) == 2  # replayed: the standby has it now


async def test_a_caller_who_wrote_reads_from_the_primary_and_others_do_not_wait(
    served: FastAPI, pair: Pair
) -> None:
    writer, other = await make_user(served), await make_user(served)
    other_account = await make_account(served, other, funds="10")
    async with await _client(served) as client:
        _account, card = await make_card(served, client, writer)  # through the API: pinned
        await pause_replay(pair)
        try:
            written = await authorize(client, writer, card, "3")
            assert written.status_code == 201, written.text
            await outside_deposit(served, other, other_account, "5")
            await served.state.db.standby.measure()
            pinned = reads("primary", "pinned")
            report = await client.get(REPORT, headers=writer.headers)
            assert written.json()["data"]["uuid"] in [row["uuid"] for row in report.json()["data"]]
            assert reads("primary", "pinned") > pinned
            assert await report_total(client, other) == 1  # not pinned: the paused standby
        finally:
            await resume_replay(pair)


async def test_a_standby_behind_the_lag_bound_is_not_read(
    pair: Pair, tmp_path: Path, trusted_lag: None
) -> None:
    app = await _app(_settings(pair, tmp_path, replica_max_lag_ms=1, replica_pin_seconds=7200))
    try:
        user = await make_user(app)
        account = await make_account(app, user, funds="10")
        await pause_replay(pair)
        try:
            await outside_deposit(app, user, account, "5")
            lag = await app.state.db.standby.measure()
            assert lag is not None
            assert lag >= 1  # replay paused behind a commit: at least as old as the commit
            lagging = reads("primary", "lagging")
            async with await _client(app) as client:
                assert await report_total(client, user) == 2  # the primary's answer
            assert reads("primary", "lagging") > lagging
        finally:
            await resume_replay(pair)
    finally:
        await app.state.db.dispose()
        await app.state.rate_limiter.close()


async def test_a_stopped_standby_leaves_reads_on_the_primary_without_an_error(
    served: FastAPI, pair: Pair
) -> None:
    user = await make_user(served)
    account = await make_account(served, user, funds="10")
    await caught_up(pair)
    assert await served.state.db.standby.measure() is not None
    async with await _client(served) as client:
        assert await report_total(client, user) == 1  # the standby's pool is open now
        pair.standby.stop()
        try:
            await outside_deposit(served, user, account, "5")
            failed = reads("primary", "failed")
            # The measurement still says fresh: the read tries the standby, fails over.
            assert await report_total(client, user) == 2
            assert reads("primary", "failed") > failed
            unavailable = reads("primary", "unavailable")
            assert await report_total(client, user) == 2
            assert reads("primary", "unavailable") > unavailable
            assert await served.state.db.standby.measure() is None
            csv = await client.get("/transaction/report.csv", headers=user.headers)
            assert csv.status_code == 200
            assert len(csv.text.strip().splitlines()) == 3  # header and both deposits
        finally:
            pair.standby.start()
    await caught_up(pair)
    assert await served.state.db.standby.measure() is not None


async def test_every_standby_route_is_a_read_of_the_api(app: FastAPI) -> None:
    """The list of docs/operations.md names real GET routes, and no authenticated read by id."""
    gets = {
        route.path_format
        for route in app.state.api_routes
        if "GET" in getattr(route, "methods", set())
    }
    assert gets >= replica.STANDBY_ROUTES
    assert not {path for path in replica.STANDBY_ROUTES if path.endswith("Uuid}")}


def test_a_replica_is_refused_where_it_cannot_serve(settings: Settings) -> None:
    """SQLite has no standby; a standby URL must be PostgreSQL's; the pin must outlast the
    lag bound. Each is a configuration error at start, never a silent primary-only run."""
    standby = "postgresql://postgres@127.0.0.1:5441/cardservice"
    if settings.is_sqlite:
        with pytest.raises(ConfigurationError, match="SQLite"):
            create_app(settings.model_copy(update={"replica_url": standby}))
        return
    with pytest.raises(ConfigurationError, match="postgresql://"):
        create_app(settings.model_copy(update={"replica_url": "mysql://standby/db"}))
    too_short = {"replica_url": standby, "replica_max_lag_ms": 5000, "replica_pin_seconds": 2}
    with pytest.raises(ConfigurationError, match="PIN_SECONDS"):
        create_app(settings.model_copy(update=too_short))


async def test_a_pin_made_through_one_instance_holds_on_another_through_redis() -> None:
    """Pins live in Redis too: a caller who wrote through one instance is pinned on every
    instance; an instance that cannot reach Redis pins everyone (the primary is never wrong)."""
    redis_url = "redis://127.0.0.1:6379/15"  # as tests/http/test_rate_limit_redis.py
    writer_side, reader_side = replica.Pins(60, redis_url), replica.Pins(60, redis_url)
    cut_off = replica.Pins(60, f"redis://127.0.0.1:{_free_port()}/0")  # nothing listens
    user, stranger = str(uuid.uuid4()), str(uuid.uuid4())
    try:
        assert not await reader_side.pinned(user)
        await writer_side.pin(user)
        assert await reader_side.pinned(user)
        assert not await reader_side.pinned(stranger)
        assert await cut_off.pinned(stranger)
    finally:
        for pins in (writer_side, reader_side, cut_off):
            await pins.close()
