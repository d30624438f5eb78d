"""POST /card/buy: price, refusals, all-or-nothing, idempotency, concurrency."""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from typing import Any

import httpx
from fastapi import FastAPI

from cardservice.accounts.service import set_account_status
from cardservice.db.sql import text_uuid
from tests.factories import (
    Caller,
    assert_ledger_consistent,
    balances,
    bin_uuid,
    make_account,
    make_user,
    set_fee_override,
)


async def _setup(app: FastAPI, funds: str = "1000") -> tuple[Caller, uuid.UUID, str]:
    user = await make_user(app)
    account = await make_account(app, user, funds=funds)
    return user, account, await bin_uuid(app)


async def _buy(client: httpx.AsyncClient, user: Caller, **body: Any) -> httpx.Response:
    return await client.post("/card/buy", json=body, headers=user.headers)


async def _card_count(app: FastAPI) -> int:
    return int(await app.state.db.reader.value("SELECT count(*) FROM cards"))


async def test_buy_charges_fees_and_start_balance(app: FastAPI, client: httpx.AsyncClient) -> None:
    user, account, bin_ = await _setup(app)
    response = await _buy(
        client,
        user,
        account_uuid=str(account),
        bin_uuid=bin_,
        cards_count=3,
        start_balance=100,
        description="ads",
        external_id="order-1",
        auto_replenish_amount=50,
        auto_replenish_min_balance=10.5,
    )
    assert response.status_code == 201, response.text
    data = response.json()["data"]
    # per card: issue 2.00 + 100.00 + 1.5 % of 100.00 = 103.50; three cards = 310.50
    assert data["charge"] == {
        "total": 310.5,
        "fees": 10.5,
        "start_balance_total": 300,
        "currency": "USD",
    }
    assert data["account"] == {"uuid": str(account), "balance": 689.5}
    assert data["external_id"] == "order-1"
    assert len(data["cards"]) == 3
    card = data["cards"][0]
    assert re.fullmatch(r"424242\*{6}\d{4}", card["mask"]) and card["last4"] == card["mask"][-4:]
    assert card["balance"] == 100 and card["status"] == "active" and card["currency"] == "USD"
    assert card["auto_replenish"] == {"enabled": True, "amount": 50, "min_balance": 10.5}
    assert card["holder_address"] is None and card["description"] == "ads"
    assert "pan" not in card and not re.search(r"\d{13,19}", response.text)
    assert await balances(app, account) == (68950, [10000, 10000, 10000])
    await assert_ledger_consistent(app)
    reader = app.state.db.reader
    assert await reader.value("SELECT count(*) FROM journal_entries WHERE kind = 'card_buy'") == 1
    assert await reader.value("SELECT count(*) FROM transactions WHERE type = 'card_issue'") == 3


async def test_buy_defaults_to_one_card_without_balance(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, account, bin_ = await _setup(app, funds="5")
    response = await _buy(client, user, account_uuid=str(account), bin_uuid=bin_)
    assert response.status_code == 201
    data = response.json()["data"]
    assert data["charge"]["total"] == 2 and len(data["cards"]) == 1
    assert data["cards"][0]["auto_replenish"] == {
        "enabled": False,
        "amount": None,
        "min_balance": None,
    }
    assert await balances(app, account) == (300, [0])


async def test_buy_refuses_when_funds_are_short(app: FastAPI, client: httpx.AsyncClient) -> None:
    user, account, bin_ = await _setup(app, funds="103.49")
    response = await _buy(client, user, account_uuid=str(account), bin_uuid=bin_, start_balance=100)
    assert response.status_code == 422 and response.json()["code"] == "insufficient_funds"
    assert await balances(app, account) == (10349, [])
    ok = await _buy(client, user, account_uuid=str(account), bin_uuid=bin_, start_balance="100")
    assert ok.status_code == 422 and ok.json()["code"] == "validation_error"


async def test_buy_refuses_when_account_is_frozen(app: FastAPI, client: httpx.AsyncClient) -> None:
    user, account, bin_ = await _setup(app)
    await app.state.db.transact(lambda tx: set_account_status(tx, account, "frozen"))
    response = await _buy(client, user, account_uuid=str(account), bin_uuid=bin_)
    assert response.status_code == 422 and response.json()["code"] == "account_inactive"
    assert await balances(app, account) == (100000, [])


async def test_buy_refuses_unavailable_bin_and_currency_mismatch(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, account, _bin = await _setup(app)
    unavailable = await app.state.db.reader.value(
        "SELECT uuid FROM bins WHERE status = 'unavailable' ORDER BY bin"
    )
    response = await _buy(client, user, account_uuid=str(account), bin_uuid=text_uuid(unavailable))
    assert response.status_code == 422 and response.json()["code"] == "bin_unavailable"
    eur_bin = await bin_uuid(app, currency="EUR")
    response = await _buy(client, user, account_uuid=str(account), bin_uuid=eur_bin)
    assert response.status_code == 422 and response.json()["code"] == "currency_mismatch"
    assert await _card_count(app) == 0


async def test_foreign_account_and_unknown_bin_are_404(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    _owner, account, bin_ = await _setup(app)
    stranger = await make_user(app)
    response = await _buy(client, stranger, account_uuid=str(account), bin_uuid=bin_)
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    own = await make_account(app, stranger, funds="10")
    response = await _buy(client, stranger, account_uuid=str(own), bin_uuid=str(uuid.uuid4()))
    assert response.status_code == 404
    assert await _card_count(app) == 0


async def test_buy_validation(app: FastAPI, client: httpx.AsyncClient) -> None:
    user, account, bin_ = await _setup(app)
    base = {"account_uuid": str(account), "bin_uuid": bin_}
    bad_bodies: list[dict[str, Any]] = [
        {},
        {"account_uuid": str(account)},
        {**base, "cards_count": 0},
        {**base, "cards_count": 101},
        {**base, "cards_count": 1.5},
        {**base, "cards_count": True},
        {**base, "start_balance": -1},
        {**base, "start_balance": 1.234},
        {**base, "start_balance": "10"},
        {**base, "start_balance": 1e12},
        {**base, "auto_replenish_amount": 10},
        {**base, "auto_replenish_min_balance": 10},
        {**base, "auto_replenish_amount": 0, "auto_replenish_min_balance": 1},
        {**base, "description": "x" * 256},
        {**base, "external_id": ""},
        {**base, "external_id": "x" * 129},
        {**base, "surprise": 1},
        {**base, "account_uuid": "not-a-uuid"},
        {**base, "account_uuid": 5},
    ]
    for body in bad_bodies:
        response = await client.post("/card/buy", json=body, headers=user.headers)
        assert response.status_code == 422, (body, response.text)
        assert response.json()["code"] == "validation_error" and response.json()["errors"]
    huge = b'{"account_uuid": "%s", "bin_uuid": "%s", "cards_count": 1%s}' % (
        str(account).encode(),
        bin_.encode(),
        b"0" * 40,
    )
    response = await client.post(
        "/card/buy", content=huge, headers={**user.headers, "Content-Type": "application/json"}
    )
    assert response.status_code == 422
    assert await balances(app, account) == (100000, [])


async def test_integral_decimal_is_an_integer(app: FastAPI, client: httpx.AsyncClient) -> None:
    user, account, bin_ = await _setup(app)
    body = f'{{"account_uuid": "{account}", "bin_uuid": "{bin_}", "cards_count": 2.0}}'
    response = await client.post(
        "/card/buy", content=body, headers={**user.headers, "Content-Type": "application/json"}
    )
    assert response.status_code == 201 and len(response.json()["data"]["cards"]) == 2


async def test_same_external_id_and_body_replays(app: FastAPI, client: httpx.AsyncClient) -> None:
    user, account, bin_ = await _setup(app)
    body = {
        "account_uuid": str(account),
        "bin_uuid": bin_,
        "external_id": "abc",
        "start_balance": 10,
    }
    first = await _buy(client, user, **body)
    same_meaning = json.dumps(body).replace('"start_balance": 10', '"start_balance": 10.00')
    assert "10.00" in same_meaning
    again = await client.post(
        "/card/buy",
        content=same_meaning,
        headers={**user.headers, "Content-Type": "application/json"},
    )
    assert first.status_code == again.status_code == 201
    assert again.headers["idempotent-replayed"] == "true"
    assert "idempotent-replayed" not in first.headers
    assert again.json() == first.json()
    assert await _card_count(app) == 1
    conflict = await _buy(client, user, **{**body, "start_balance": 11})
    assert conflict.status_code == 409 and conflict.json()["code"] == "idempotency_conflict"
    other_user, other_account, _ = await _setup(app)
    theirs = await _buy(
        client, other_user, account_uuid=str(other_account), bin_uuid=bin_, external_id="abc"
    )
    assert theirs.status_code == 201  # external_id is per user
    await assert_ledger_consistent(app)


async def test_concurrent_duplicates_buy_once(app: FastAPI, client: httpx.AsyncClient) -> None:
    user, account, bin_ = await _setup(app)
    body = {
        "account_uuid": str(account),
        "bin_uuid": bin_,
        "external_id": "race",
        "start_balance": 5,
    }
    responses = await asyncio.gather(*(_buy(client, user, **body) for _ in range(10)))
    assert [r.status_code for r in responses] == [201] * 10
    assert sum(r.headers.get("idempotent-replayed") == "true" for r in responses) == 9
    assert len({r.json()["data"]["cards"][0]["uuid"] for r in responses}) == 1
    assert await _card_count(app) == 1
    await assert_ledger_consistent(app)


async def test_concurrent_purchases_never_overdraw(app: FastAPI, client: httpx.AsyncClient) -> None:
    # each purchase costs 2.00 + 10.00 + 0.15 = 12.15; 300.00 pays for 24 of the 50 racing
    user, account, bin_ = await _setup(app, funds="300")
    body = {"account_uuid": str(account), "bin_uuid": bin_, "start_balance": 10}
    responses = await asyncio.gather(*(_buy(client, user, **body) for _ in range(50)))
    statuses = [r.status_code for r in responses]
    assert statuses.count(201) == 300 * 100 // 1215  # 24 purchases fit in 300.00
    assert statuses.count(422) == 50 - statuses.count(201)
    assert all(r.json()["code"] == "insufficient_funds" for r in responses if r.status_code == 422)
    account_balance, card_balances = await balances(app, account)
    assert account_balance == 30000 - 1215 * statuses.count(201)
    assert card_balances == [1000] * statuses.count(201)
    await assert_ledger_consistent(app)


async def test_a_taken_card_number_is_drawn_again(
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: Any
) -> None:
    from cardservice.cards import purchase
    from cardservice.cards.numbers import generate_pan

    user, account, bin_ = await _setup(app)
    taken, fresh = generate_pan("424242"), [generate_pan("424242") for _ in range(2)]
    draws = iter([taken, taken, taken, *fresh])  # the 2nd purchase: both taken, then fresh
    monkeypatch.setattr(purchase, "generate_pan", lambda _bin: next(draws))
    first = await _buy(client, user, account_uuid=str(account), bin_uuid=bin_)
    assert first.status_code == 201, first.text
    second = await _buy(client, user, account_uuid=str(account), bin_uuid=bin_, cards_count=2)
    assert second.status_code == 201, second.text
    assert sorted(c["last4"] for c in second.json()["data"]["cards"]) == sorted(
        pan[-4:] for pan in fresh
    )
    assert [c["sort_order"] for c in second.json()["data"]["cards"]] == [2, 3]
    assert await _card_count(app) == 3
    await assert_ledger_consistent(app)


async def test_buy_prices_with_the_users_fee_overrides(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, account, bin_ = await _setup(app)
    await set_fee_override(app, user, "card_issue", "fixed", 50)
    await set_fee_override(app, user, "card_topup", "percent", 1000)
    body = {
        "account_uuid": str(account),
        "bin_uuid": bin_,
        "cards_count": 2,
        "start_balance": 100,
        "external_id": "with-overrides",
    }
    first = await _buy(client, user, **body)
    assert first.status_code == 201, first.text
    # per card: issue 0.50 + 100.00 + 10 % of 100.00 = 110.50; two cards = 221.00
    assert first.json()["data"]["charge"] == {
        "total": 221,
        "fees": 21,
        "start_balance_total": 200,
        "currency": "USD",
    }
    assert first.json()["data"]["account"]["balance"] == 779
    again = await _buy(client, user, **body)
    assert again.headers["idempotent-replayed"] == "true" and again.json() == first.json()
    other, other_account, _ = await _setup(app)
    theirs = await _buy(client, other, account_uuid=str(other_account), bin_uuid=bin_)
    assert theirs.json()["data"]["charge"]["fees"] == 2  # the default plan: 2.00 + 1.5 % of 0
    assert await _card_count(app) == 3
    await assert_ledger_consistent(app)


async def test_a_refused_purchase_is_remembered_by_its_external_id(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """A repeat of a refused purchase is refused the same way, even once the account could
    pay: it never buys later by surprise."""
    user, account, bin_ = await _setup(app, funds="1")
    body = {
        "account_uuid": str(account),
        "bin_uuid": bin_,
        "external_id": "r1",
        "start_balance": 50,
    }
    first = await _buy(client, user, **body)
    assert first.status_code == 422 and first.json()["code"] == "insufficient_funds"
    assert "idempotent-replayed" not in first.headers
    await client.post(
        "/sandbox/deposits",
        json={"account_uuid": str(account), "amount": 500},
        headers=user.headers,
    )
    again = await _buy(client, user, **body)
    assert again.status_code == 422 and again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    assert await _card_count(app) == 0
    assert await balances(app, account) == (50100, [])
    fresh = await _buy(client, user, **{**body, "external_id": "r2"})
    assert fresh.status_code == 201
    await assert_ledger_consistent(app)


async def test_a_reused_external_id_naming_a_foreign_account_is_a_conflict(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, account, bin_ = await _setup(app)
    body = {"account_uuid": str(account), "bin_uuid": bin_, "external_id": "x1"}
    assert (await _buy(client, user, **body)).status_code == 201
    _other, foreign, _ = await _setup(app)
    response = await _buy(client, user, **{**body, "account_uuid": str(foreign)})
    assert response.status_code == 409 and response.json()["code"] == "idempotency_conflict"
    assert await _card_count(app) == 1
