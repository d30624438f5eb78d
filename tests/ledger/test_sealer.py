"""The sealer (docs/ledger.md, "The hash chain"): every committed entry sealed exactly once,
with writers and sealers in real processes (two `cardservice worker` loops as the sealers),
a `cardservice worker` SIGKILLed inside its batch's write statement (PostgreSQL; on SQLite
a unit holding a sealed batch uncommitted), two sealers at once on PostgreSQL, the books
exact whether the sealer has run or not, and the seal lag on /metrics. The server killed
mid-burst: the bank run (tests/stress/bank_run.py)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from cardservice.config import Settings
from cardservice.db.sql import Tx
from cardservice.ledger import repository
from cardservice.ledger.entries import SystemBook, book_leg, post_entry
from cardservice.ledger.sealer import BATCH, seal_waiting
from cardservice.ledger.verify import verify
from tests.cli.test_cli import cli_env
from tests.ledger.activity import activity

ROOT = Path(__file__).resolve().parents[2]
LEGS = [book_leg(SystemBook.FEES, "USD", 3), book_leg(SystemBook.FUNDING, "USD", -3)]
PATIENCE = 120.0  # seconds a test waits for processes before it fails (never a measured bound)


def _start(settings: Settings, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, *args],
        env=cli_env(settings),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _verify(settings: Settings) -> subprocess.CompletedProcess[str]:
    """`cardservice ledger verify`, a process of its own."""
    return subprocess.run(
        [sys.executable, "-m", "cardservice", "ledger", "verify"],
        env=cli_env(settings),
        capture_output=True,
        text=True,
        timeout=PATIENCE,
        check=False,
    )


async def _write(app: FastAPI, count: int) -> None:
    async def unit(tx: Tx) -> None:
        await post_entry(tx, "written", LEGS)

    for _ in range(count):
        await app.state.db.transact(unit)


async def _chain(app: FastAPI) -> tuple[int, list[int]]:
    """(entries, their places sorted; None for an unsealed one is not a place)."""
    rows = await app.state.db.reader.rows("SELECT chain_seq FROM journal_entries")
    return len(rows), sorted(int(r[0]) for r in rows if r[0] is not None)


async def _until_sealed(app: FastAPI) -> None:
    waited = 0.0
    while await repository.any_unsealed(app.state.db.reader):
        assert waited < PATIENCE, "the sealers did not seal every entry"
        await asyncio.sleep(0.2)
        waited += 0.2


async def test_every_entry_is_sealed_once_with_writers_and_two_worker_loops(
    app: FastAPI, settings: Settings
) -> None:
    """Three writer processes and two `cardservice worker` processes sealing beside them: on
    PostgreSQL entries commit out of id order and the two loops race for the sealer's turn."""
    workers = [_start(settings, "-m", "cardservice", "worker") for _ in range(2)]
    try:
        writers = [
            _start(settings, "-m", "tests.ledger.seal_child", "write", "150") for _ in range(3)
        ]
        for writer in writers:
            _out, err = writer.communicate(timeout=PATIENCE)
            assert writer.returncode == 0, err
        await _until_sealed(app)
    finally:
        for worker in workers:
            worker.send_signal(signal.SIGTERM)
        for worker in workers:
            _out, err = worker.communicate(timeout=PATIENCE)
            # stopped by SIGTERM in its loop (0), or still starting up (the signal's default)
            assert worker.returncode in (0, -signal.SIGTERM), err
            assert "Traceback" not in err, err
    entries, places = await _chain(app)
    assert entries == 450 and places == list(range(1, 451))  # each once, no fork, no gap
    verdict = await verify(app.state.db, seal=False)
    assert verdict.ok and verdict.entries == 450 and verdict.unsealed == 0, verdict.problem
    fees = await app.state.db.reader.value(
        "SELECT sum(amount) FROM ledger_day_totals WHERE holder_class = 'fees'"
    )
    assert int(fees) == 450 * 3  # the day totals added each entry once


async def test_a_sealer_killed_mid_batch_leaves_every_entry_to_the_next(
    app: FastAPI, settings: Settings
) -> None:
    """SQLite: the sealer's unit holds the writer, so no lock of a test can stop it inside its
    batch; a unit that sealed a batch and waits uncommitted stands for it (PostgreSQL kills
    the real `cardservice worker` inside its write statement, below)."""
    if not app.state.db.is_sqlite:
        pytest.skip("PostgreSQL: the worker's own loop is killed mid-batch (the test below)")
    await _write(app, 40)
    head_sql = "SELECT seq, hash FROM ledger_chain_head"
    head = [tuple(r) for r in await app.state.db.reader.rows(head_sql)]
    sealer = _start(settings, "-m", "tests.ledger.seal_child", "hold")
    try:
        assert sealer.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(sealer.stdout.readline), PATIENCE)
        assert line.strip() == "sealed 40"  # written, not committed
        os.kill(sealer.pid, signal.SIGKILL)
    finally:
        sealer.kill()
        sealer.communicate(timeout=PATIENCE)
    assert sealer.returncode == -signal.SIGKILL
    assert await _chain(app) == (40, [])  # the batch's unit rolled back whole
    assert [tuple(r) for r in await app.state.db.reader.rows(head_sql)] == head
    checked = _verify(settings)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.splitlines()[0] == "ok 40 entries"
    assert await _chain(app) == (40, list(range(1, 41)))


# The worker's backend inside its batch: the sealer's advisory lock held (its turn), its
# write statement (`WITH chained AS (UPDATE journal_entries …`) waiting for a row lock
_MID_BATCH = f"""
SELECT a.pid FROM pg_stat_activity a
JOIN pg_locks turn ON turn.pid = a.pid AND turn.locktype = 'advisory' AND turn.granted
 AND turn.objid = {repository.SEALER_LOCK}
JOIN pg_locks head ON head.pid = a.pid AND head.relation = 'ledger_chain_head'::regclass
 AND head.mode = 'RowExclusiveLock'
WHERE a.wait_event_type = 'Lock' AND a.query LIKE '%WITH chained AS%'"""


async def test_a_worker_killed_inside_its_batch_leaves_it_whole_to_the_next_sealer(
    app: FastAPI, settings: Settings
) -> None:
    """A real `cardservice worker` (its background loop, the sealer a job of it) is SIGKILLed
    while its batch is half done: the sealer's turn taken, 40 entries read, the head moved,
    their places and hashes being written — the test holds one of those entries `FOR SHARE`,
    so the write statement waits there, and the kill lands only once `pg_locks` shows the
    worker's backend in that state. Its transaction never commits: the chain, the head and
    the day totals are as before it, and the next sealer seals each entry once."""
    if app.state.db.is_sqlite:
        pytest.skip("row locks and an advisory turn: PostgreSQL (SQLite: the test above)")
    db = app.state.db
    await _write(app, 5)
    assert await seal_waiting(db) == 5
    await _write(app, 40)
    head_sql = "SELECT seq, hash FROM ledger_chain_head"
    totals_sql = "SELECT holder_class, amount, postings FROM ledger_day_totals ORDER BY 1"
    head = [tuple(r) for r in await db.reader.rows(head_sql)]
    totals = [tuple(r) for r in await db.reader.rows(totals_sql)]

    async def holding(tx: Tx) -> int:
        """The entries' last row held FOR SHARE while a worker's sealer reaches its write
        and is killed there; the worker's backend, returned."""
        worker = None
        last = await tx.value(
            "SELECT id FROM journal_entries WHERE chain_seq IS NULL ORDER BY id DESC LIMIT 1"
            " FOR SHARE"
        )
        assert last is not None
        try:
            worker = _start(settings, "-m", "cardservice", "worker")
            waited, backend = 0.0, None
            while backend is None:
                assert worker.poll() is None, worker.communicate()[1]
                assert waited < PATIENCE, "the worker's sealer never reached its write"
                await asyncio.sleep(0.1)
                waited += 0.1
                backend = await db.reader.value(_MID_BATCH)
            os.kill(worker.pid, signal.SIGKILL)
            worker.communicate(timeout=PATIENCE)
            assert worker.returncode == -signal.SIGKILL
        finally:
            if worker is not None and worker.poll() is None:
                worker.kill()
                worker.communicate(timeout=PATIENCE)
        return int(backend)

    backend = await db.transact(holding)
    # the lock released: the orphaned backend ends its statement, finds its client gone and
    # rolls back, its turn released with it
    waited = 0.0
    while await db.reader.value("SELECT 1 FROM pg_stat_activity WHERE pid = $1", backend):
        assert waited < PATIENCE, "the killed worker's backend never ended"
        await asyncio.sleep(0.1)
        waited += 0.1
    assert await _chain(app) == (45, list(range(1, 6)))  # nothing of the batch stands
    assert [tuple(r) for r in await db.reader.rows(head_sql)] == head
    assert [tuple(r) for r in await db.reader.rows(totals_sql)] == totals
    assert await seal_waiting(db) == 40  # the next sealer: the same entries, each once
    assert await _chain(app) == (45, list(range(1, 46)))
    verdict = await verify(db, seal=False)
    assert verdict.ok and verdict.entries == 45 and verdict.unsealed == 0, verdict.problem
    fees = await db.reader.value(
        "SELECT sum(amount) FROM ledger_day_totals WHERE holder_class = 'fees'"
    )
    assert int(fees) == 45 * 3  # the day totals added each entry once


async def test_two_sealers_at_once_make_one_chain(app: FastAPI) -> None:
    """Two sealers of one process at once (two connections on PostgreSQL, whose advisory
    lock lets one in; SQLite's writer takes them in turn), over more than a batch."""
    await _write(app, BATCH + 30)
    sealed = await asyncio.gather(seal_waiting(app.state.db), seal_waiting(app.state.db))
    sealed_again = await seal_waiting(app.state.db)
    assert sum(sealed) + sealed_again == BATCH + 30
    assert await _chain(app) == (BATCH + 30, list(range(1, BATCH + 31)))
    verdict = await verify(app.state.db, seal=False)
    assert verdict.ok and verdict.entries == BATCH + 30, verdict.problem


async def test_a_sealer_skips_its_turn_while_another_holds_it(app: FastAPI) -> None:
    if app.state.db.is_sqlite:
        pytest.skip("SQLite's sealer holds the writer: no other unit runs beside it")
    await _write(app, 5)

    async def holding_the_turn(tx: Tx) -> int:
        assert await repository.take_sealer(tx, wait=False)
        return await seal_waiting(app.state.db)  # the other loop's turn: nothing done

    assert await app.state.db.transact(holding_the_turn) == 0
    assert await seal_waiting(app.state.db) == 5


async def test_the_seal_lag_is_on_metrics(app: FastAPI, client: httpx.AsyncClient) -> None:
    def lag(text: str) -> float:
        [line] = [
            line
            for line in text.splitlines()
            if line.startswith("cardservice_ledger_seal_lag_seconds ")
        ]
        return float(line.split()[1])

    await activity(app, client)
    scraped = await client.get("/metrics")
    assert scraped.status_code == 200
    assert lag(scraped.text) > 0  # the activity's entries wait: nothing sealed them
    await seal_waiting(app.state.db)
    assert lag((await client.get("/metrics")).text) == 0
