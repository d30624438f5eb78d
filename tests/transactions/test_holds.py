"""Captures and incremental authorizations (docs/transactions.md#holds-captures-increments-expiry):
whole, partial, multiple and over-captures; increments approved and declined. Money checked in the
ledger every time."""

from __future__ import annotations

import uuid
from typing import Any

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

FEE = 10  # card_transaction, minor units


async def step(
    client: httpx.AsyncClient, user: Caller, txn: str, action: str, **body: object
) -> httpx.Response:
    return await client.post(
        f"/sandbox/transactions/{txn}/{action}", headers=user.headers, json=body if body else None
    )


async def purchase(
    client: httpx.AsyncClient, user: Caller, card: str, amount: str, **extra: object
) -> dict[str, Any]:
    response = await authorize(client, user, card, amount, **extra)
    assert response.json()["data"]["status"] == "pending", response.text
    data: dict[str, Any] = response.json()["data"]
    return data


async def entries_of(app: FastAPI, txn: str) -> list[str]:
    """The kinds of the journal entries referring to the transaction, oldest first."""
    rows = await app.state.db.reader.rows(
        "SELECT kind FROM journal_entries WHERE reference = $1 ORDER BY id", uuid.UUID(txn)
    )
    return [row["kind"] for row in rows]


async def book(app: FastAPI, name: str) -> int:
    total = await app.state.db.reader.value(
        "SELECT sum(amount) FROM postings WHERE system_book = $1", name
    )
    return int(total or 0)


async def test_capture_without_amount_takes_the_whole_hold(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    txn = (await purchase(client, user, card, "40"))["uuid"]
    assert await book(app, "holds") == 4000
    done = await step(client, user, txn, "settle")
    assert done.status_code == 201, done.text
    data = done.json()["data"]
    assert (data["status"], data["amount"], data["captured_amount"]) == ("completed", 40, 40)
    assert data["authorized_amount"] == 40
    assert (await balances(app, account))[1] == [10000 - 4000 - FEE]
    assert (await book(app, "holds"), await book(app, "merchants")) == (0, 4000)
    assert await entries_of(app, txn) == ["card_purchase_pending", "card_purchase_captured"]
    await assert_ledger_consistent(app)


async def test_partial_captures_keep_the_rest_held_until_the_final_one(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    txn = (await purchase(client, user, card, "60"))["uuid"]
    first = (await step(client, user, txn, "settle", amount=20, final=False)).json()["data"]
    assert (first["status"], first["captured_amount"], first["amount"]) == ("pending", 20, 60)
    second = (await step(client, user, txn, "settle", amount=15, final=False)).json()["data"]
    assert (second["status"], second["captured_amount"]) == ("pending", 35)
    assert await book(app, "holds") == 2500
    last = (await step(client, user, txn, "settle", amount=5)).json()["data"]
    # the final capture releases the 20 nobody captured
    assert (last["status"], last["captured_amount"], last["amount"]) == ("completed", 40, 40)
    assert (await balances(app, account))[1] == [10000 - 4000 - FEE]
    assert (await book(app, "holds"), await book(app, "merchants")) == (0, 4000)
    assert (await entries_of(app, txn)).count("card_purchase_captured") == 3
    again = await step(client, user, txn, "settle", amount=1)
    assert again.status_code == 422 and again.json()["code"] == "invalid_transition"
    await assert_ledger_consistent(app)


async def test_captures_that_take_the_whole_hold_complete_it(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="100")
    txn = (await purchase(client, user, card, "10"))["uuid"]
    await step(client, user, txn, "settle", amount=4, final=False)
    done = (await step(client, user, txn, "settle", amount=6, final=False)).json()["data"]
    assert (done["status"], done["captured_amount"]) == ("completed", 10)
    await assert_ledger_consistent(app)


async def test_fuel_under_capture_releases_the_rest_at_once(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="200")
    txn = (await purchase(client, user, card, "100", tag="shell"))["uuid"]
    data = (await step(client, user, txn, "settle", amount=37.45)).json()["data"]
    assert (data["status"], data["amount"], data["captured_amount"]) == ("completed", 37.45, 37.45)
    assert data["authorized_amount"] == 100
    assert (await balances(app, account))[1] == [20000 - 3745 - FEE]
    refund = await step(client, user, txn, "refund")
    assert refund.json()["data"]["refunded_amount"] == 37.45  # refunds what was captured
    await assert_ledger_consistent(app)


async def test_tip_over_capture_up_to_twenty_percent(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    txn = (await purchase(client, user, card, "50"))["uuid"]
    too_much = await step(client, user, txn, "settle", amount=60.01)
    assert too_much.status_code == 422
    assert too_much.json()["code"] == "capture_exceeds_authorization"
    data = (await step(client, user, txn, "settle", amount=60)).json()["data"]
    assert (data["status"], data["amount"], data["captured_amount"]) == ("completed", 60, 60)
    assert (await balances(app, account))[1] == [10000 - 6000 - FEE]
    assert (await book(app, "holds"), await book(app, "merchants")) == (0, 6000)
    await assert_ledger_consistent(app)


async def test_over_capture_the_card_cannot_pay_changes_nothing(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="50")
    txn = (await purchase(client, user, card, "45"))["uuid"]
    before = await balances(app, account)
    refused = await step(client, user, txn, "settle", amount=50)  # 5 more; the card has 4.90
    assert refused.status_code == 422 and refused.json()["code"] == "insufficient_funds"
    assert await balances(app, account) == before
    assert await entries_of(app, txn) == ["card_purchase_pending"]
    record = (await client.get(f"/transaction/{txn}", headers=user.headers)).json()["data"]
    assert (record["status"], record["captured_amount"], record["amount"]) == ("pending", 0, 45)
    assert (await step(client, user, txn, "settle", amount=49.9)).status_code == 201
    await assert_ledger_consistent(app)


async def test_an_over_capture_is_not_a_new_authorization_but_counts_in_the_windows(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """docs/controls.md, "Captures and the limits": the tip is honoured past a daily limit
    the authorization met (the card's controls are not checked again), and the window counts
    what was captured from then on."""
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="200")
    limits = {"spending_controls": {"daily": 50, "lifetime": 50, "per_authorization": 45}}
    assert (
        await client.patch(f"/card/{card}", headers=user.headers, json=limits)
    ).status_code == 200
    txn = (await purchase(client, user, card, "45"))["uuid"]
    tipped = await step(client, user, txn, "settle", amount=54)  # 45 × 1.2
    assert tipped.status_code == 201, tipped.text
    data = tipped.json()["data"]
    assert (data["status"], data["amount"], data["captured_amount"]) == ("completed", 54, 54)
    assert (await balances(app, account))[1] == [20000 - 5400 - FEE]
    after = (await authorize(client, user, card, "0.01")).json()["data"]
    assert (after["status"], after["error"]) == ("declined", "limit_exceeded")
    await assert_ledger_consistent(app)


async def test_capture_body_is_checked(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="100")
    txn = (await purchase(client, user, card, "10"))["uuid"]
    json_type = {**user.headers, "Content-Type": "application/json"}
    for body, status in (
        (b"[]", 400),
        (b'{"amount": 0}', 422),
        (b'{"amount": 1.001}', 422),
        (b'{"final": "maybe"}', 422),
        (b'{"x": 1}', 422),
    ):
        response = await client.post(
            f"/sandbox/transactions/{txn}/settle", headers=json_type, content=body
        )
        assert response.status_code == status, body
    assert await entries_of(app, txn) == ["card_purchase_pending"]
    stranger = await make_user(app)
    assert (await step(client, stranger, txn, "settle", amount=1)).status_code == 404


async def test_reverse_after_partial_captures_releases_only_the_rest(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    txn = (await purchase(client, user, card, "30"))["uuid"]
    await step(client, user, txn, "settle", amount=12, final=False)
    data = (await step(client, user, txn, "reverse")).json()["data"]
    assert (data["status"], data["amount"], data["captured_amount"]) == ("completed", 12, 12)
    assert (await balances(app, account))[1] == [10000 - 1200 - FEE]  # the fee stands
    await assert_ledger_consistent(app)


async def test_increment_raises_the_hold_without_a_fee(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="300")
    txn = (await purchase(client, user, card, "100", tag="hilton"))["uuid"]
    raised = await step(client, user, txn, "increment", amount=80)
    assert raised.status_code == 201, raised.text
    data = raised.json()["data"]
    assert data["uuid"] == txn
    assert (data["status"], data["amount"], data["authorized_amount"]) == ("pending", 180, 180)
    assert data["fee"] == 0.1
    assert (await balances(app, account))[1] == [30000 - 18000 - FEE]
    assert await entries_of(app, txn) == ["card_purchase_pending", "card_purchase_incremented"]
    # the authorization plus its increments is what the 20 % applies to
    done = (await step(client, user, txn, "settle", amount=216)).json()["data"]
    assert (done["status"], done["captured_amount"]) == ("completed", 216)
    events = (
        await client.get(
            "/events", headers=user.headers, params={"filters[type]": "transaction.updated"}
        )
    ).json()["data"]
    assert [e["data"]["amount"] for e in events if e["data"]["uuid"] == txn] == [180, 216]
    await assert_ledger_consistent(app)


async def test_a_refused_increment_is_a_declined_child_and_leaves_the_hold(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    txn = (await purchase(client, user, card, "60"))["uuid"]
    before = await balances(app, account)
    refused = await step(client, user, txn, "increment", amount=45)  # 39.90 left on the card
    assert refused.status_code == 201, refused.text
    child = refused.json()["data"]
    assert (child["status"], child["error"], child["parent_uuid"]) == (
        "declined",
        "insufficient_funds",
        txn,
    )
    assert (child["type"], child["amount"], child["fee"]) == ("card_purchase", 45, 0)
    assert await balances(app, account) == before
    parent = (await client.get(f"/transaction/{txn}", headers=user.headers)).json()["data"]
    assert (parent["status"], parent["amount"], parent["authorized_amount"]) == ("pending", 60, 60)
    await assert_ledger_consistent(app)


async def test_increment_meets_the_cards_controls(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="500")
    limits = {"spending_controls": {"daily": 100}}
    assert (
        await client.patch(f"/card/{card}", headers=user.headers, json=limits)
    ).status_code == 200
    txn = (await purchase(client, user, card, "70"))["uuid"]
    over = (await step(client, user, txn, "increment", amount=31)).json()["data"]
    assert (over["status"], over["error"]) == ("declined", "limit_exceeded")
    fits = (await step(client, user, txn, "increment", amount=30)).json()["data"]
    assert (fits["uuid"], fits["amount"]) == (txn, 100)
    frozen = {"status": "frozen"}
    assert (
        await client.patch(f"/card/{card}", headers=user.headers, json=frozen)
    ).status_code == 200
    refused = (await step(client, user, txn, "increment", amount=1)).json()["data"]
    assert (refused["status"], refused["error"]) == ("declined", "card_frozen")
    await assert_ledger_consistent(app)


async def test_increment_only_on_a_pending_purchase_of_ones_own(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="100")
    txn = (await purchase(client, user, card, "10"))["uuid"]
    stranger = await make_user(app)
    assert (await step(client, stranger, txn, "increment", amount=1)).status_code == 404
    await step(client, user, txn, "settle")
    late = await step(client, user, txn, "increment", amount=1)
    assert late.status_code == 422 and late.json()["code"] == "invalid_transition"
    bad = await step(client, user, txn, "increment", amount=-1)
    assert bad.status_code == 422 and bad.json()["code"] == "validation_error"
    await assert_ledger_consistent(app)
