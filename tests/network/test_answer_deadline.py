"""Every request is answered within `CARDSERVICE_ISO8583_ANSWER_SECONDS`
(docs/network.md#the-network-interface-iso-8583, docs/operations.md#the-fleet-on-one-machine): a
unit held up past it is answered `91`, and `91` keeps its word — nothing stays recorded.

- held up before its COMMIT (another unit holds the account): the unit rolls back when it
  gets its turn; a repeat of the key is a new request, approved once;
- held up in its COMMIT (on PostgreSQL, a deferred trigger that sleeps, as a COMMIT waits for
  the synchronous standby of a leader just promoted): it commits, then releases itself — the
  key forgotten, the hold released — and the repeat is approved once;
- a decision endpoint's wait moves the deadline: its answer is the endpoint's, not `91`.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import httpx
import pytest
from fastapi import FastAPI
from starlette.responses import JSONResponse, Response

from cardservice.acquirer import messages
from cardservice.acquirer.client import NetworkClient, stans, transmitted_now
from cardservice.config import Settings
from cardservice.db.sql import Tx
from cardservice.network.listener import running_listener
from tests.decisions.conftest import Receiver, use_receiver
from tests.factories import assert_ledger_consistent, balances, stored_transactions
from tests.network.conftest import free_port, issue_card

DEADLINE = 1.0  # seconds: the listener's answer deadline in these tests (the service's default)
# Nothing else answers `91` here (the database is up): a `91` is the deadline's. Its time is
# bounded below only (not early); an upper bound would be a timing threshold on a shared
# machine (tests/network/test_database_down.py times the outage's answers).


@pytest.fixture
async def line(app: FastAPI) -> AsyncIterator[NetworkClient]:
    """A listener whose deadline is `DEADLINE`, and a client connected to it."""
    settings: Settings = app.state.settings.model_copy(
        update={"iso8583_port": free_port(), "iso8583_answer_seconds": DEADLINE}
    )
    state = app.state
    async with running_listener(settings, state.db, state.cipher, state.outbound):
        assert settings.iso8583_port is not None
        client = await NetworkClient.connect("127.0.0.1", settings.iso8583_port)
        yield client
        await client.close()


async def _send(client: NetworkClient, mti: str, fields: dict[int, str]) -> tuple[str, float]:
    started = time.monotonic()
    answer = await client.request(mti, fields, wait=10)
    return answer.fields[39], time.monotonic() - started


async def _purchases(app: FastAPI) -> list[tuple[str, int]]:
    return [(t.status, t.amount) for t in await stored_transactions(app, "card_purchase")]


async def _held(app: FastAPI) -> int:
    """What the pending purchases hold: amount and fee."""
    purchases = await stored_transactions(app, "card_purchase")
    return sum(t.amount + t.fee for t in purchases if t.status == "pending")


async def test_a_unit_held_up_before_its_commit_is_answered_91_and_records_nothing(
    app: FastAPI, client: httpx.AsyncClient, line: NetworkClient, caplog: pytest.LogCaptureFixture
) -> None:
    _user, card = await issue_card(app, client)
    before = await balances(app, card.account)
    held, release = asyncio.Event(), asyncio.Event()

    async def hold_the_account(tx: Tx) -> None:
        await tx.execute("UPDATE accounts SET balance = balance WHERE uuid = $1", card.account)
        held.set()
        await release.wait()

    holder = asyncio.create_task(app.state.db.transact(hold_the_account))
    await held.wait()
    fields = messages.authorization(card.pan, card.expiry, 700, next(stans()), transmitted_now())
    code, took = await _send(line, "0100", fields)
    assert code == "91" and took >= DEADLINE, (code, took)
    release.set()
    await holder
    # the repeat waits for the first's unit (one key at a time), which rolled back: new request
    assert (await _send(line, "0101", fields))[0] == "00"
    [late] = [r.getMessage() for r in caplog.records if "at its deadline" in r.getMessage()]
    assert late.endswith("its work ended with 91")  # rolled back, not committed and released
    assert await _purchases(app) == [("pending", 700)]  # the repeat's
    account, [card_balance] = await balances(app, card.account)
    assert account == before[0] and card_balance == before[1][0] - await _held(app)
    await assert_ledger_consistent(app)


async def test_an_approval_committed_after_its_91_is_released_and_its_key_forgotten(
    app: FastAPI, client: httpx.AsyncClient, line: NetworkClient
) -> None:
    if app.state.db.is_sqlite:
        pytest.skip("an SQLite COMMIT has nothing to wait for")
    _user, card = await issue_card(app, client)
    before = await balances(app, card.account)
    stan = next(stans(424_242))
    fields = messages.authorization(card.pan, card.expiry, 700, stan, transmitted_now())
    admin = await asyncpg.connect(app.state.settings.database_url)
    try:  # this key's COMMIT sleeps 2.5 s in a deferred trigger (run at COMMIT)
        await admin.execute(
            "CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN PERFORM pg_sleep(2.5); RETURN NULL; END $$"
        )
        await admin.execute(
            "CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON network_messages "
            "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW "
            f"WHEN (NEW.stan = '{stan}') EXECUTE FUNCTION slow_commit()"
        )
        code, took = await _send(line, "0100", fields)
        assert code == "91" and took >= DEADLINE, (code, took)
        # waits for the slow COMMIT's locks: the unit has committed when this returns
        await admin.execute("DROP TRIGGER slow_commit ON network_messages")
    finally:
        await admin.execute("DROP TRIGGER IF EXISTS slow_commit ON network_messages")
        await admin.execute("DROP FUNCTION IF EXISTS slow_commit()")
        await admin.close()
    # one key at a time: the repeat waits until the first has released itself, then is new
    assert (await _send(line, "0101", fields))[0] == "00"
    assert sorted(await _purchases(app)) == [("pending", 700), ("reversed", 700)]
    remembered = await app.state.db.reader.rows(
        "SELECT t.status FROM network_messages m JOIN transactions t"
        " ON t.uuid = m.transaction_uuid WHERE m.stan = $1",
        stan,
    )
    assert [row["status"] for row in remembered] == ["pending"]  # the key is the repeat's
    _account, [card_balance] = await balances(app, card.account)
    assert card_balance == before[1][0] - await _held(app)  # once: the late one was released
    await assert_ledger_consistent(app)


async def test_a_decision_endpoints_wait_moves_the_deadline(
    app: FastAPI, client: httpx.AsyncClient, line: NetworkClient, receiver: Receiver
) -> None:
    async def thoughtful(_event: dict[str, Any]) -> Response:
        await asyncio.sleep(1.5 * DEADLINE)  # past the deadline, within the endpoint's 2 s
        return JSONResponse({"approved": False, "reason": "thought about it"})

    user, card = await issue_card(app, client)
    receiver.handler = thoughtful
    await use_receiver(client, user, receiver, timeout_ms=2000)
    fields = messages.authorization(card.pan, card.expiry, 100, next(stans()), transmitted_now())
    code, took = await _send(line, "0100", fields)
    assert code == "05" and took >= 1.5 * DEADLINE, (code, took)
    [purchase] = await stored_transactions(app, "card_purchase")
    assert purchase.decision == "endpoint" and purchase.status == "declined"
    assert uuid.UUID(str(purchase.card_uuid)) == uuid.UUID(card.uuid)
