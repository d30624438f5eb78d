"""Hold expiry (docs/transactions.md#holds-captures-increments-expiry): each tag category's window,
the sweep (service, worker loop), exactly once."""

from __future__ import annotations

import asyncio
import uuid
from datetime import datetime, timedelta

import httpx
from fastapi import FastAPI

from cardservice.models.base import utcnow
from cardservice.transactions.expiry import sweep_expired_holds
from cardservice.webhooks.worker import running_worker
from tests.factories import assert_ledger_consistent, balances, make_card, make_user
from tests.transactions.test_holds import FEE, book, entries_of, purchase, step


def _at(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


async def test_each_category_holds_for_its_days(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    plain = await purchase(client, user, card, "10")
    hotel = await purchase(client, user, card, "20", tag="hilton")
    flight = await purchase(client, user, card, "30", tag="ryanair")
    for record, days in ((plain, 7), (hotel, 31), (flight, 31)):
        created = _at(record["created_at"])
        assert _at(record["hold_expires_at"]) - created.replace(microsecond=0) < timedelta(
            days=days, seconds=1
        )
        assert _at(record["hold_expires_at"]) >= created.replace(microsecond=0) + timedelta(
            days=days
        )
    start = _at(plain["created_at"])
    assert await sweep_expired_holds(app.state.db, start + timedelta(days=6)) == 0
    assert await sweep_expired_holds(app.state.db, start + timedelta(days=8)) == 1
    expired = (await client.get(f"/transaction/{plain['uuid']}", headers=user.headers)).json()
    assert expired["data"]["status"] == "reversed"
    assert (await balances(app, account))[1] == [10000 - 5000 - 2 * FEE]
    assert await sweep_expired_holds(app.state.db, start + timedelta(days=8)) == 0  # once
    assert await sweep_expired_holds(app.state.db, start + timedelta(days=32)) == 2
    assert (await balances(app, account))[1] == [10000]
    events = (
        await client.get(
            "/events", headers=user.headers, params={"filters[type]": "transaction.updated"}
        )
    ).json()["data"]
    assert sorted(e["data"]["uuid"] for e in events) == sorted(
        r["uuid"] for r in (plain, hotel, flight)
    )
    assert all(e["data"]["status"] == "reversed" for e in events)
    late = await step(client, user, plain["uuid"], "settle")
    assert late.status_code == 422 and late.json()["code"] == "invalid_transition"
    await assert_ledger_consistent(app)


async def test_expiry_after_partial_captures_keeps_what_was_captured(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    record = await purchase(client, user, card, "50")
    await step(client, user, record["uuid"], "settle", amount=20, final=False)
    start = _at(record["created_at"])
    assert await sweep_expired_holds(app.state.db, start + timedelta(days=8)) == 1
    data = (await client.get(f"/transaction/{record['uuid']}", headers=user.headers)).json()
    assert (data["data"]["status"], data["data"]["captured_amount"]) == ("completed", 20)
    assert (await balances(app, account))[1] == [10000 - 2000 - FEE]
    assert (await book(app, "holds"), await book(app, "merchants")) == (0, 2000)
    await assert_ledger_consistent(app)


async def test_the_worker_loop_sweeps_expired_holds(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    record = await purchase(client, user, card, "25")
    # a hold whose window has passed: no service makes a hold that ends in the past
    await app.state.db.transact(
        lambda tx: tx.execute(
            "UPDATE transactions SET hold_expires_at = $1 WHERE uuid = $2",
            utcnow() - timedelta(minutes=1),
            uuid.UUID(record["uuid"]),
        )
    )
    state = app.state
    async with running_worker(
        state.db, state.settings, state.cipher, state.outbound, state.runtime.jobs
    ):
        for _ in range(200):  # until the loop's first step has run (no timing asserted)
            found = await client.get(f"/transaction/{record['uuid']}", headers=user.headers)
            if found.json()["data"]["status"] != "pending":
                break
            await asyncio.sleep(0.05)
    assert found.json()["data"]["status"] == "reversed"
    assert (await balances(app, account))[1] == [10000]
    assert await entries_of(app, record["uuid"]) == [
        "card_purchase_pending",
        "card_purchase_reversed",
    ]
    await assert_ledger_consistent(app)
