"""A `cardservice clearing outgoing` process killed (SIGKILL) while it writes an outgoing file of
5,000 chargebacks (docs/disputes.md#the-outgoing-file); the same command again writes the file
an uninterrupted run writes — byte for byte — and every dispute is sent exactly once.

PostgreSQL only: the file is one unit of work, and a kill in the middle of it is the same
rollback on either database; PostgreSQL lets the test watch the unit's progress from another
connection (the entries' sequence is not transactional) and copy the seeded database
(`CREATE DATABASE … TEMPLATE`) for the uninterrupted run.

The seed: one purchase captured and disputed through the API, then copied set-based into
`CHARGEBACKS` purchases of the same card — each with its own uuid, its own ARN
(`transactions.records.purchase_arn`, as its capture made it), its two journal entries and
their postings (the card's balance moved by them), and an open dispute of its own: the rows
the API writes for each purchase and dispute, in a few statements instead of 15,000 requests.
`CARDSERVICE_KILL_CHARGEBACKS` changes the count."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import asyncpg
import httpx
import pytest
from fastapi import FastAPI

from cardservice.app import create_app
from cardservice.clearing import ipm
from cardservice.clearing.outgoing import write_outgoing
from cardservice.config import Settings
from cardservice.db.sql import Tx
from cardservice.models.base import utcnow
from cardservice.operator import CLI
from cardservice.transactions.records import purchase_arn
from tests.conftest import DATABASES, PG_ADMIN_DSN, TEST_CVK, TEST_KEY
from tests.disputes.test_network import _completed, _dispute
from tests.factories import assert_ledger_consistent, make_card, make_user
from tests.fresh_database import create_migrated_database, database_name, drop_database

CHARGEBACKS = int(os.environ.get("CARDSERVICE_KILL_CHARGEBACKS", "5000"))
AMOUNT = "1.00"

_CLONE_PURCHASES = """
INSERT INTO transactions
SELECT (jsonb_populate_record(t, jsonb_build_object('uuid', n.uuid))).*
FROM transactions t, unnest($2::uuid[]) AS n(uuid) WHERE t.uuid = $1"""
# each purchase's entries (authorization, capture) with their postings, as post_entry writes
# them: postings first, the entry after, in one statement
_CLONE_ENTRIES = """
WITH s AS (
  SELECT j.id AS old, j.kind, j.created_at, n.uuid,
         nextval(pg_get_serial_sequence('journal_entries', 'id')) AS id
  FROM journal_entries j, unnest($2::uuid[]) AS n(uuid) WHERE j.reference = $1),
p AS (
  INSERT INTO postings (entry_id, account_uuid, card_uuid, system_book, currency, amount)
  SELECT s.id, p.account_uuid, p.card_uuid, p.system_book, p.currency, p.amount
  FROM s JOIN postings p ON p.entry_id = s.old RETURNING 1)
INSERT INTO journal_entries (id, kind, reference, created_at)
SELECT id, kind, uuid, created_at FROM s WHERE (SELECT count(*) FROM p) > 0"""
_CARD_MOVED = """
UPDATE cards SET balance = balance + $2 * (
  SELECT sum(p.amount) FROM postings p JOIN journal_entries j ON j.id = p.entry_id
  WHERE j.reference = $3 AND p.card_uuid = $1)
WHERE uuid = $1"""
_CLONE_DISPUTES = """
INSERT INTO disputes
SELECT (jsonb_populate_record(d, jsonb_build_object(
  'uuid', n.uuid, 'transaction_uuid', n.purchase, 'arn', n.arn))).*
FROM disputes d, unnest($2::uuid[], $3::uuid[], $4::text[]) AS n(uuid, purchase, arn)
WHERE d.uuid = $1"""


def _settings(url: str, tmp_path: Path) -> Settings:
    return Settings(
        database_url=url, var_dir=tmp_path / "var", storage_dir=tmp_path / "blobs",
        encryption_key=TEST_KEY, cvk=TEST_CVK, sandbox=True, log_level="WARNING",
    )  # fmt: skip


async def _seed(app: FastAPI) -> str:
    """CHARGEBACKS captured purchases on one card, each with an open dispute; the card's
    number."""
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        user = await make_user(app)
        balance = CHARGEBACKS * 2 + 100  # each purchase 1.00 and its fee
        _account, card = await make_card(
            app, client, user, funds=str(balance * 2), start_balance=str(balance)
        )
        purchase = await _completed(client, user, card, AMOUNT)
        dispute = await _dispute(client, user, purchase)
    template, first = uuid.UUID(purchase), uuid.UUID(dispute["uuid"])
    created = await app.state.db.reader.value(
        "SELECT created_at FROM transactions WHERE uuid = $1", template
    )
    purchases = [uuid.uuid4() for _ in range(CHARGEBACKS - 1)]
    arns = [purchase_arn(p, created) for p in purchases]

    async def copies(tx: Tx) -> None:
        await tx.execute(_CLONE_PURCHASES, template, purchases)
        await tx.execute(_CLONE_ENTRIES, template, purchases)
        await tx.execute(_CARD_MOVED, uuid.UUID(card), len(purchases), template)
        disputes = [uuid.uuid4() for _ in purchases]
        await tx.execute(_CLONE_DISPUTES, first, disputes, purchases, arns)

    await app.state.db.transact(copies)
    ciphertext = await app.state.db.reader.value(
        "SELECT pan_ciphertext FROM cards WHERE uuid = $1", uuid.UUID(card)
    )
    pan: str = app.state.cipher.decrypt(bytes(ciphertext))
    return pan


async def _admin(sql: str) -> None:
    connection = await asyncpg.connect(PG_ADMIN_DSN)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def _environment(settings: Settings) -> dict[str, str]:
    return {
        **os.environ,
        "CARDSERVICE_DATABASE_URL": settings.database_url,
        "CARDSERVICE_ENCRYPTION_KEY": TEST_KEY,
        "CARDSERVICE_CVK": TEST_CVK,
        "CARDSERVICE_VAR_DIR": str(settings.var_dir),
        "CARDSERVICE_LOG_LEVEL": "WARNING",
    }


def _outgoing(settings: Settings, day: str, out: Path) -> subprocess.Popen[bytes]:
    command = ["clearing", "outgoing", "--date", day, "--out", str(out)]
    return subprocess.Popen(
        [sys.executable, "-m", "cardservice", *command], env=_environment(settings),
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip


async def _entries_taken(app: FastAPI) -> int:
    """The journal entries' sequence: it moves as the other process's unit writes, committed
    or not."""
    return int(await app.state.db.reader.value("SELECT last_value FROM journal_entries_id_seq"))


async def test_a_process_killed_while_writing_the_outgoing_file_writes_it_again_whole(
    tmp_path: Path,
) -> None:
    if "postgresql" not in DATABASES:
        pytest.skip("the kill is watched and the database copied on PostgreSQL")
    seeded = await create_migrated_database(PG_ADMIN_DSN, "cs_kill")
    uninterrupted = seeded.rsplit("/", 1)[0] + f"/cs_kill_copy_{uuid.uuid4().hex[:12]}"
    try:
        settings = _settings(seeded, tmp_path)
        app = create_app(settings)
        try:
            pan = await _seed(app)
        finally:
            await app.state.db.dispose()
        await _admin(
            f'CREATE DATABASE "{database_name(uninterrupted)}" TEMPLATE "{database_name(seeded)}"'
        )
        day = utcnow().date()
        app = create_app(settings)
        try:
            reader = app.state.db.reader
            before = await _entries_taken(app)
            out = tmp_path / "out.ipm"
            writer = _outgoing(settings, str(day), out)
            deadline = time.monotonic() + 120
            while (  # noqa: ASYNC110 - another process writes
                await _entries_taken(app) < before + CHARGEBACKS
                and writer.poll() is None
                and time.monotonic() < deadline
            ):
                await asyncio.sleep(0.05)
            writer.send_signal(signal.SIGKILL)
            writer.wait(timeout=30)
            assert writer.returncode == -signal.SIGKILL, "the write was over before the kill"
            # killed with the unit's claims written (one entry a dispute), not committed:
            # nothing of it stands, no file, every dispute still waiting
            assert await _entries_taken(app) - before == CHARGEBACKS
            assert await reader.value("SELECT count(*) FROM clearing_outgoing") == 0
            waiting = await reader.value("SELECT count(*) FROM disputes WHERE to_send = '450'")
            assert waiting == CHARGEBACKS
            again = _outgoing(settings, str(day), out)
            _, errors = await asyncio.to_thread(again.communicate, timeout=300)
            assert again.returncode == 0, errors
            content = out.read_bytes()
            # once more (in this process): the same bytes, nothing moved
            entries = await reader.value("SELECT count(*) FROM journal_entries")
            kept = await write_outgoing(app.state.db, app.state.cipher, day, CLI)
            assert not kept.created and kept.content == content
            assert await reader.value("SELECT count(*) FROM journal_entries") == entries
            sent = await reader.rows(
                "WITH c AS (SELECT reference, count(*) AS n FROM journal_entries"
                " WHERE kind = 'dispute_chargeback' GROUP BY reference)"
                " SELECT d.arn, d.status, d.to_send, coalesce(c.n, 0) AS n"
                " FROM disputes d LEFT JOIN c ON c.reference = d.uuid"
            )
            assert len(sent) == CHARGEBACKS
            assert {(r["status"], r["to_send"], r["n"]) for r in sent} == {
                ("chargeback_sent", None, 1)
            }
            books = await reader.value(
                "SELECT sum(amount) FROM postings WHERE system_book = 'disputes'"
            )
            assert books == CHARGEBACKS * 100  # each claimed once, to the cent
            await assert_ledger_consistent(app)
        finally:
            await app.state.db.dispose()
        chargebacks = list(ipm.messages(io.BytesIO(content)))[1:-1]
        assert sorted(m["DE31"] for m in chargebacks) == sorted(r["arn"] for r in sent)
        assert {m["DE2"] for m in chargebacks} == {pan}
        assert [m["DE71"] for m in chargebacks] == list(range(2, CHARGEBACKS + 2))
        # the seeded copy written without a kill: the same bytes
        copy = create_app(_settings(uninterrupted, tmp_path))
        try:
            written = await write_outgoing(copy.state.db, copy.state.cipher, day, CLI)
        finally:
            await copy.state.db.dispose()
        assert written.created and written.content == content
    finally:
        await drop_database(PG_ADMIN_DSN, uninterrupted)
        await drop_database(PG_ADMIN_DSN, seeded)
