"""Races on one hold, with real concurrency against the app (docs/transactions.md#foreign-currency):
captures against captures, a capture against the expiry sweep, an increment against a reversal,
sweepers against sweepers. Each is answered one at a time under the row locks, never both ways."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import httpx
from fastapi import FastAPI

from cardservice.transactions.expiry import sweep_expired_holds
from tests.factories import assert_ledger_consistent, balances, make_card, make_user
from tests.transactions.test_holds import FEE, book, entries_of, purchase, step


def _later(record: dict[str, str], days: int) -> datetime:
    return datetime.fromisoformat(record["created_at"].replace("Z", "+00:00")) + timedelta(
        days=days
    )


async def test_captures_at_once_never_exceed_the_hold(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    txn = (await purchase(client, user, card, "10"))["uuid"]
    answers = await asyncio.gather(
        *(step(client, user, txn, "settle", amount=6, final=False) for _ in range(6))
    )
    won = [a for a in answers if a.status_code == 201]
    # 6 from the hold, then 4 more + 2 of tip (the 20 % allowed), then nothing is held
    assert len(won) == 2, [a.text for a in answers]
    assert {a.json()["code"] for a in answers if a.status_code != 201} <= {
        "invalid_transition",
        "capture_exceeds_authorization",
    }
    record = (await client.get(f"/transaction/{txn}", headers=user.headers)).json()["data"]
    assert (record["status"], record["captured_amount"]) == ("completed", 12)
    assert (await balances(app, account))[1] == [10000 - 1200 - FEE]
    assert await book(app, "merchants") == 1200
    await assert_ledger_consistent(app)


async def test_two_whole_captures_at_once_capture_once(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="100")
    txn = (await purchase(client, user, card, "10"))["uuid"]
    answers = await asyncio.gather(
        step(client, user, txn, "settle"), step(client, user, txn, "settle")
    )
    assert sorted(a.status_code for a in answers) == [201, 422]
    assert (await entries_of(app, txn)).count("card_purchase_captured") == 1
    assert await book(app, "merchants") == 1000
    await assert_ledger_consistent(app)


async def test_a_capture_racing_the_sweep_captures_or_expires_never_both(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    captured = 0
    for _ in range(4):
        record = await purchase(client, user, card, "5")
        capture, released = await asyncio.gather(
            step(client, user, record["uuid"], "settle"),
            sweep_expired_holds(app.state.db, _later(record, 8)),
        )
        final = (await client.get(f"/transaction/{record['uuid']}", headers=user.headers)).json()
        if capture.status_code == 201:
            assert released == 0 and final["data"]["status"] == "completed"
        else:
            assert capture.json()["code"] == "invalid_transition"
            assert released == 1 and final["data"]["status"] == "reversed"
        kinds = await entries_of(app, record["uuid"])
        assert ("card_purchase_captured" in kinds) != ("card_purchase_reversed" in kinds)
        captured += capture.status_code == 201
    assert await book(app, "holds") == 0
    assert (await balances(app, account))[1] == [10000 - captured * (500 + FEE)]
    await assert_ledger_consistent(app)


async def test_an_increment_racing_a_reversal_leaves_no_hold(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    for _ in range(4):
        txn = (await purchase(client, user, card, "10"))["uuid"]
        raised, reversed_ = await asyncio.gather(
            step(client, user, txn, "increment", amount=5), step(client, user, txn, "reverse")
        )
        assert reversed_.status_code == 201, reversed_.text
        assert raised.status_code in (201, 422), raised.text
        if raised.status_code == 422:  # the reversal came first
            assert raised.json()["code"] == "invalid_transition"
        final = (await client.get(f"/transaction/{txn}", headers=user.headers)).json()["data"]
        assert final["status"] == "reversed"
        assert await book(app, "holds") == 0
        assert (await balances(app, account))[1] == [10000]
    await assert_ledger_consistent(app)


async def test_sweepers_at_once_release_each_hold_once(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    records = [await purchase(client, user, card, "3") for _ in range(12)]
    later = _later(records[-1], 8)
    released = await asyncio.gather(
        *(sweep_expired_holds(app.state.db, later, batch=5) for _ in range(3))
    )
    assert sum(released) == 12
    for record in records:
        assert (await entries_of(app, record["uuid"])).count("card_purchase_reversed") == 1
    assert (await balances(app, account))[1] == [10000]
    await assert_ledger_consistent(app)
