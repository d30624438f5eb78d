"""A clearing file is booked in units of records (docs/network.md#clearing-files, "Units of
records"): one COMMIT for many records, each record decided once through its money entry. A
record an entry refuses never undoes its neighbours, and a process killed in the middle of a
unit leaves nothing of it: the file sent again books each record once."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
import uuid
from decimal import Decimal
from pathlib import Path

import asyncpg
import httpx
import orjson
import pytest
from fastapi import FastAPI

from cardservice.config import Settings
from cardservice.http.router import dumps
from tests.clearing.helpers import ipm_file, post_file, presentment, report_of
from tests.clearing.test_kill import _environment
from tests.factories import (
    Caller,
    assert_ledger_consistent,
    bin_uuid,
    stored_transactions,
)
from tests.network.conftest import issue_card
from tests.operator.helpers import operator_key


async def _records(app: FastAPI) -> list[tuple[int, str | None, object]]:
    """Every record: message number, outcome, booked_at."""
    rows = await app.state.db.reader.rows(
        "SELECT message_number, outcome, booked_at FROM clearing_records ORDER BY message_number"
    )
    return [(int(row["message_number"]), row["outcome"], row["booked_at"]) for row in rows]


async def _booked_once(app: FastAPI, numbers: list[int]) -> None:
    """Each of the records `numbers` booked one purchase, and nothing else was booked."""
    posted = await stored_transactions(app, "card_purchase")
    cleared = sorted(orjson.loads(p.clearing or "null")["message_number"] for p in posted)
    assert cleared == sorted(numbers)


async def test_a_refused_record_between_two_good_ones_is_an_exception_and_they_book_once(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    _user, card = await issue_card(app, client)
    key = await operator_key(app, "network")
    first = presentment(card.pan, 300)
    refused = presentment(card.pan, 500, refund=True, currency="978")  # the card holds USD
    last = presentment(card.pan, 400)
    report = report_of(await post_file(client, key, ipm_file("FILE-UNIT", [first, refused, last])))
    assert report["presentments"] == {"matched": 0, "duplicates": 0, "force_posted": 2}
    assert report["refunds"] == 0
    assert report["unmatched"] == [
        {"message_number": refused.message_number,
         "reason": "refund not booked: A credit is made in the card's currency."},
    ]  # fmt: skip
    await _booked_once(app, [first.message_number, last.message_number])
    assert await stored_transactions(app, "card_refund") == []
    records = await _records(app)
    outcomes = [outcome for _n, outcome, _at in records]
    assert outcomes == ["force_posted", "unmatched", "force_posted"]
    assert len({at for _n, _o, at in records}) == 1  # one unit wrote the three outcomes
    await assert_ledger_consistent(app)


async def _second_card(app: FastAPI, client: httpx.AsyncClient, user: Caller, account: str) -> str:
    """Another card bought on the same account (the unit's account lock is one)."""
    response = await client.post(
        "/card/buy",
        content=dumps(
            {"account_uuid": account, "bin_uuid": await bin_uuid(app), "start_balance": Decimal(50)}
        ),
        headers={**user.headers, "Content-Type": "application/json"},
    )
    assert response.status_code == 201, response.text
    card_uuid: str = response.json()["data"]["cards"][0]["uuid"]
    return card_uuid


def _ingest(settings: Settings, path: Path) -> subprocess.Popen[bytes]:
    """`cardservice clearing ingest FILE` in a process of its own."""
    return subprocess.Popen(
        [sys.executable, "-m", "cardservice", "clearing", "ingest", str(path)],
        env=_environment(settings), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


async def _wait(condition: str, url: str, deadline: float) -> None:
    """Until a backend of the database other than ours matches `condition`."""
    connection = await asyncpg.connect(url)
    try:
        while time.monotonic() < deadline:
            found = await connection.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                f" AND pid <> pg_backend_pid() AND {condition}"
            )
            if found:
                return
            await asyncio.sleep(0.05)
    finally:
        await connection.close()
    raise AssertionError(f"no backend with {condition}")


async def test_a_process_killed_in_the_middle_of_a_unit_leaves_nothing_and_books_once_again(
    app: FastAPI, client: httpx.AsyncClient, settings: Settings, tmp_path: Path
) -> None:
    if not settings.database_url.startswith("postgresql"):
        pytest.skip("a unit held mid-way by another session's row lock: PostgreSQL")
    user, card = await issue_card(app, client, funds="1000", start_balance="100")
    other = await app.state.db.reader.row(
        "SELECT pan_ciphertext FROM cards WHERE uuid = $1",
        uuid.UUID(await _second_card(app, client, user, str(card.account))),
    )
    assert other is not None
    other_pan = app.state.cipher.decrypt(bytes(other["pan_ciphertext"]))
    items = [
        presentment(card.pan, 100), presentment(card.pan, 200),
        presentment(other_pan, 300, refund=True), presentment(card.pan, 400),
    ]  # fmt: skip
    body = ipm_file("FILE-KILL-UNIT", items)
    path = tmp_path / "clearing.ipm"
    path.write_bytes(body)
    url = settings.database_url
    holder = await asyncpg.connect(url)
    blocker = holder.transaction()
    await blocker.start()
    await holder.execute(
        "SELECT 1 FROM cards WHERE pan_fingerprint = $1 FOR UPDATE",
        app.state.cipher.fingerprint(other_pan),
    )
    ingest = _ingest(settings, path)
    # the unit wrote the first two records' force posts (before the refund moves money) and
    # waits for the second card, which the refund credits
    try:
        await _wait(
            "wait_event_type = 'Lock' AND EXISTS (SELECT 1 FROM pg_locks l"
            " WHERE l.pid = pg_stat_activity.pid AND l.granted AND l.mode = 'RowExclusiveLock'"
            " AND l.relation = 'transactions'::regclass)",
            url, time.monotonic() + 120,
        )  # fmt: skip
    finally:
        ingest.send_signal(signal.SIGKILL)
        ingest.wait(timeout=30)
        await blocker.rollback()
        await holder.close()
    # the killed process's backend ends its unit without a COMMIT
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        busy = await app.state.db.reader.value(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND state IN ('active', 'idle in transaction') AND pid <> pg_backend_pid()"
            " AND query NOT LIKE '%pg_stat_activity%'"
        )
        if not busy:
            break
        await asyncio.sleep(0.05)
    assert [outcome for _n, outcome, _at in await _records(app)] == [None] * 4
    assert await stored_transactions(app, "card_purchase") == []
    key = await operator_key(app, "network")
    report = report_of(await post_file(client, key, body))
    assert report["presentments"]["force_posted"] == 3 and report["unmatched"] == []
    assert report["refunds"] == 1
    await _booked_once(app, [item.message_number for item in items if not item.refund])
    await assert_ledger_consistent(app)


async def _advisory_waiters(app: FastAPI) -> int:
    """Sessions of the database waiting for an advisory lock (PostgreSQL)."""
    return int(
        await app.state.db.reader.value(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        )
    )


async def test_two_ingests_of_one_file_at_once_book_it_once_and_answer_its_report(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """docs/network.md#exactly-once: the second waits for the first's lock on the file id, then
    answers as the same file sent again (200, the first report), nothing booked twice."""
    _user, card = await issue_card(app, client, funds="100000", start_balance="5000")
    key = await operator_key(app, "network")
    items = [presentment(card.pan, 100 + i) for i in range(300)]
    body = ipm_file("FILE-TWO-AT-ONCE", items)
    first = asyncio.create_task(post_file(client, key, body))
    second = asyncio.create_task(post_file(client, key, body))
    if not app.state.db.is_sqlite:  # one of them is seen waiting for the other's lock
        deadline = time.monotonic() + 120
        while not await _advisory_waiters(app) and time.monotonic() < deadline:
            assert not (first.done() and second.done())
            await asyncio.sleep(0.01)
        assert await _advisory_waiters(app) == 1
    answers = sorted([await first, await second], key=lambda response: response.status_code)
    assert [answer.status_code for answer in answers] == [200, 201], answers[-1].text
    booked, again = report_of(answers[1]), report_of(answers[0], status=200)
    assert again == booked
    assert booked["presentments"]["force_posted"] == len(items) and booked["unmatched"] == []
    await _booked_once(app, [item.message_number for item in items])
    await assert_ledger_consistent(app)
