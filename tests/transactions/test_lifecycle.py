"""settle / reverse / refund: each transition, each refusal, and races on one purchase."""

from __future__ import annotations

import asyncio
import random

import httpx
from fastapi import FastAPI

from tests.factories import (
    Caller,
    assert_ledger_consistent,
    authorize,
    balances,
    make_card,
    make_user,
)


async def _step(
    client: httpx.AsyncClient, user: Caller, txn: str, action: str, **body: object
) -> httpx.Response:
    return await client.post(
        f"/sandbox/transactions/{txn}/{action}", headers=user.headers, json=body if body else None
    )


async def _purchase(client: httpx.AsyncClient, user: Caller, card: str, amount: str = "10") -> str:
    response = await authorize(client, user, card, amount)
    assert response.json()["data"]["status"] == "pending"
    return str(response.json()["data"]["uuid"])


async def test_settle_then_refund_in_parts(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    txn = await _purchase(client, user, card)
    settled = await _step(client, user, txn, "settle")
    assert settled.status_code == 201 and settled.json()["data"]["status"] == "completed"
    part = await _step(client, user, txn, "refund", amount=4)
    assert (
        part.json()["data"]["status"] == "completed" and part.json()["data"]["refunded_amount"] == 4
    )
    too_much = await _step(client, user, txn, "refund", amount=6.01)
    assert too_much.status_code == 422 and too_much.json()["code"] == "refund_exceeds_amount"
    rest = await _step(client, user, txn, "refund")
    assert (
        rest.json()["data"]["status"] == "refunded" and rest.json()["data"]["refunded_amount"] == 10
    )
    assert (await balances(app, account))[1] == [10000 - 10]  # only the fee stays spent
    refunds = (
        await client.get(
            "/transaction/report", headers=user.headers, params={"filters[type]": "card_refund"}
        )
    ).json()["data"]
    assert sorted(r["amount"] for r in refunds) == [4, 6]
    assert all(r["parent_uuid"] == txn and r["direction"] == "credit" for r in refunds)
    await assert_ledger_consistent(app)


async def test_refund_body_may_be_empty_or_an_empty_object(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    json_type = {**user.headers, "Content-Type": "application/json"}
    for body in (b"", b"{}"):
        txn = await _purchase(client, user, card, "7")
        await _step(client, user, txn, "settle")
        response = await client.post(
            f"/sandbox/transactions/{txn}/refund", headers=json_type, content=body
        )
        assert response.status_code == 201, response.text
        assert response.json()["data"]["status"] == "refunded"
    bad = await _purchase(client, user, card, "7")
    await _step(client, user, bad, "settle")
    for body, status in ((b"[]", 400), (b'{"amount": 0}', 422), (b'{"x": 1}', 422)):
        response = await client.post(
            f"/sandbox/transactions/{bad}/refund", headers=json_type, content=body
        )
        assert response.status_code == status, body
    assert (await balances(app, account))[1] == [10000 - 3 * 10 - 700]
    await assert_ledger_consistent(app)


async def test_reverse_returns_amount_and_fee(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    txn = await _purchase(client, user, card, "25")
    assert (await balances(app, account))[1] == [10000 - 2510]
    reversed_ = await _step(client, user, txn, "reverse")
    assert reversed_.json()["data"]["status"] == "reversed"
    assert (await balances(app, account))[1] == [10000]
    await assert_ledger_consistent(app)


async def test_invalid_transitions_change_nothing(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    pending = await _purchase(client, user, card)
    assert (await _step(client, user, pending, "refund")).json()["code"] == "invalid_transition"
    completed = await _purchase(client, user, card)
    await _step(client, user, completed, "settle")
    reversed_ = await _purchase(client, user, card)
    await _step(client, user, reversed_, "reverse")
    declined = (await authorize(client, user, card, "1000")).json()["data"]["uuid"]
    before = await balances(app, account)
    cases = [
        (completed, "settle"),
        (completed, "reverse"),
        (reversed_, "settle"),
        (reversed_, "refund"),
        (reversed_, "reverse"),
        (declined, "settle"),
        (declined, "reverse"),
        (declined, "refund"),
    ]
    for txn, action in cases:
        response = await _step(client, user, txn, action)
        assert response.status_code == 422, (action, response.text)
        assert response.json()["code"] == "invalid_transition"
    deposits = (
        await client.get(
            "/transaction/report", headers=user.headers, params={"filters[type]": "deposit"}
        )
    ).json()["data"]
    assert (await _step(client, user, deposits[0]["uuid"], "refund")).status_code == 422
    assert await balances(app, account) == before
    stranger = await make_user(app)
    assert (await _step(client, stranger, pending, "settle")).status_code == 404


async def test_racing_transitions_on_one_purchase(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    txn = await _purchase(client, user, card)
    results = await asyncio.gather(
        *(_step(client, user, txn, action) for action in ["settle", "reverse"] * 5)
    )
    winners = [r for r in results if r.status_code == 201]
    assert len(winners) == 1
    assert all(r.json()["code"] == "invalid_transition" for r in results if r.status_code != 201)
    final = winners[0].json()["data"]["status"]
    assert (await balances(app, account))[1] == ([10000] if final == "reversed" else [10000 - 1010])
    await _step(client, user, txn, "settle")
    refunds = await asyncio.gather(
        *(_step(client, user, txn, "refund", amount=4) for _ in range(4))
    )
    if final == "completed":
        assert [r.status_code for r in refunds].count(201) == 2  # 4 + 4 ≤ 10 < 12
    await assert_ledger_consistent(app)


async def test_random_operations_conserve_money(app: FastAPI, client: httpx.AsyncClient) -> None:
    rng = random.Random(20261122)
    user = await make_user(app)
    _account, card = await make_card(
        app,
        client,
        user,
        funds="500",
        start_balance="50",
        auto_replenish_amount=25,
        auto_replenish_min_balance=10,
    )
    pending: list[str] = []
    completed: list[str] = []
    for _ in range(60):
        action = rng.choice(["auth", "auth", "settle", "reverse", "refund", "deposit"])
        if action == "auth":
            response = await authorize(client, user, card, f"{rng.randint(1, 3000) / 100:.2f}")
            if response.json()["data"]["status"] == "pending":
                pending.append(response.json()["data"]["uuid"])
        elif action in ("settle", "reverse") and pending:
            txn = pending.pop(rng.randrange(len(pending)))
            assert (await _step(client, user, txn, action)).status_code == 201
            if action == "settle":
                completed.append(txn)
        elif action == "refund" and completed:
            await _step(client, user, rng.choice(completed), "refund", amount=rng.randint(1, 5))
        elif action == "deposit":
            await client.post(
                "/sandbox/deposits",
                headers=user.headers,
                json={"account_uuid": str(_account), "amount": rng.randint(1, 50)},
            )
        await assert_ledger_consistent(app)
