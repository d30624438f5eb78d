"""The authorization engine: approvals, every decline reason, fees, tags, replenish."""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta

import httpx
from fastapi import FastAPI

from cardservice.accounts.service import set_account_status
from cardservice.models.base import utcnow
from tests.factories import (
    assert_ledger_consistent,
    authorize,
    balances,
    make_card,
    make_user,
    set_fee_override,
)


async def _set_card(app: FastAPI, card: str, **values: object) -> None:
    """Card columns no endpoint sets, written in a unit of work (which completes the event
    a status change writes; PostgreSQL refuses to commit it otherwise)."""
    columns = ", ".join(f"{name} = ${i}" for i, name in enumerate(values, 2))
    sql = f"UPDATE cards SET {columns} WHERE uuid = $1"
    await app.state.db.transact(lambda tx: tx.execute(sql, uuid.UUID(card), *values.values()))


async def test_approval_debits_amount_and_fee_at_once(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    response = await authorize(
        client,
        user,
        card,
        "12.34",
        mcc="4899",
        tag="netflix",
        merchant_country="US",
        merchant_city="Los Gatos",
    )
    assert response.status_code == 201, response.text
    data = response.json()["data"]
    assert (
        data["status"] == "pending"
        and data["type"] == "card_purchase"
        and data["direction"] == "debit"
    )
    assert data["amount"] == 12.34 and data["fee"] == 0.1 and data["error"] is None
    assert data["merchant"] == {
        "name": "Netflix",
        "mcc": "4899",
        "country": "US",
        "city": "Los Gatos",
    }
    assert data["tag"] == "netflix" and data["flagged"] is False
    _account_balance, [card_balance] = await balances(app, account)
    assert card_balance == 10000 - 1234 - 10
    await assert_ledger_consistent(app)
    tags = (await client.get("/dictionary/transaction-tags")).json()["data"]
    assert tags[0] == {
        "slug": "netflix",
        "name": "Netflix",
        "category": "entertainment",
        "transactions_count": 1,
        "hold_days": 7,
    }


async def _declined(
    client: httpx.AsyncClient, user: object, card: str, amount: str = "5", **extra: object
) -> dict[str, object]:
    response = await authorize(client, user, card, amount, **extra)  # type: ignore[arg-type]
    assert response.status_code == 201, response.text
    data: dict[str, object] = response.json()["data"]
    assert data["status"] == "declined"
    return data


async def test_every_decline_reason(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    assert (await _declined(client, user, card, "99.95"))["error"] == "insufficient_funds"
    assert (await _declined(client, user, card, currency="JPY"))[
        "error"
    ] == "currency_not_supported"  # the rate table has no JPY
    blocked = await _declined(client, user, card, tag="bet365")
    assert blocked["error"] == "merchant_blocked" and blocked["tag"] == "bet365"
    assert (await _declined(client, user, card, three_ds_code="123456"))["error"] == "invalid_3ds"
    await app.state.db.transact(lambda tx: set_account_status(tx, account, "frozen"))
    assert (await _declined(client, user, card))["error"] == "account_inactive"
    await app.state.db.transact(lambda tx: set_account_status(tx, account, "active"))
    past = utcnow() - timedelta(days=40)
    await _set_card(app, card, expiry_year=past.year, expiry_month=past.month)
    assert (await _declined(client, user, card))["error"] == "card_expired"
    await _set_card(app, card, status="frozen")
    assert (await _declined(client, user, card))["error"] == "card_frozen"
    await _set_card(app, card, status="closed")
    assert (await _declined(client, user, card))["error"] == "card_closed"
    errors = {
        e["slug"] for e in (await client.get("/dictionary/transaction-errors")).json()["data"]
    }
    report = (
        await client.get(
            "/transaction/report",
            headers=user.headers,
            params={"filters[status]": "declined", "per_page": 100},
        )
    ).json()["data"]
    assert {row["error"] for row in report} <= errors and len(report) == 8
    await assert_ledger_consistent(app)


async def test_decline_fee_is_charged_only_as_far_as_the_balance_covers(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="0.30")
    first = await _declined(client, user, card, "1.00")
    assert first["fee"] == 0.3 and first["error"] == "insufficient_funds"
    assert (await balances(app, account))[1] == [0]
    second = await _declined(client, user, card, "1.00")
    assert second["fee"] == 0
    await assert_ledger_consistent(app)


async def test_restricted_tag_passes_but_is_flagged(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    data = (await authorize(client, user, card, "10", tag="binance")).json()["data"]
    assert data["status"] == "pending" and data["flagged"] is True


async def test_unknown_tag_and_foreign_card_change_nothing(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    owner, stranger = await make_user(app), await make_user(app)
    account, card = await make_card(app, client, owner)
    before = await balances(app, account)
    unknown = await authorize(client, owner, card, "1", tag="no-such-shop")
    assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"
    foreign = await authorize(client, stranger, card, "1")
    assert foreign.status_code == 404
    valid = {"card_uuid": card, "amount": 1, "currency": "USD", "merchant_name": "Shop"}
    for change in (
        {"amount": 0},
        {"amount": -1},
        {"amount": 1.001},
        {"amount": "1"},
        {"currency": "usd"},
        {"mcc": "12"},
        {"three_ds_code": "12ab56"},
        {"merchant_name": ""},
        {"extra": True},
    ):
        response = await client.post(
            "/sandbox/authorizations", headers=owner.headers, json={**valid, **change}
        )
        assert response.status_code == 422, change
    assert await balances(app, account) == before


async def test_three_ds_code_is_used_up_by_an_approval(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    issued = await client.post(
        "/sandbox/3ds",
        headers=user.headers,
        json={"card_uuid": card, "merchant_name": "Amazon", "amount": 20, "currency": "USD"},
    )
    assert issued.status_code == 201
    code = issued.json()["data"]["code"]
    assert len(code) == 6 and code.isdigit()
    listed = (await client.get("/user/3ds-unassigned", headers=user.headers)).json()["data"]
    assert [c["code"] for c in listed] == [code]
    approved = (await authorize(client, user, card, "20", three_ds_code=code)).json()["data"]
    assert approved["status"] == "pending"
    assert (await client.get("/user/3ds-unassigned", headers=user.headers)).json()["data"] == []
    reused = (await authorize(client, user, card, "20", three_ds_code=code)).json()["data"]
    assert reused["error"] == "invalid_3ds"


async def test_replenish_tops_up_from_the_account(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    account, card = await make_card(
        app,
        client,
        user,
        funds="200",
        start_balance="50",
        auto_replenish_amount=30,
        auto_replenish_min_balance=20,
    )
    # buy: 2.00 + 50.00 + 0.75 = 52.75 → account 147.25
    await authorize(client, user, card, "29.90")  # card 50 - 29.90 - 0.10 = 20.00: not below 20
    assert await balances(app, account) == (14725, [2000])
    await authorize(client, user, card, "0.90")  # card 19.00 < 20.00 → +30.00
    assert await balances(app, account) == (11725, [4900])
    report = (
        await client.get(
            "/transaction/report", headers=user.headers, params={"filters[type]": "auto_replenish"}
        )
    ).json()["data"]
    assert len(report) == 1 and report[0]["amount"] == 30 and report[0]["direction"] == "credit"
    await assert_ledger_consistent(app)


async def test_a_decline_fee_can_trigger_replenish(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    account, card = await make_card(
        app,
        client,
        user,
        funds="200",
        start_balance="20",
        auto_replenish_amount=30,
        auto_replenish_min_balance=20,
    )
    # buy: 2.00 + 20.00 + 0.30 = 22.30 → account 177.70; card 20.00 is not below 20.00
    assert await balances(app, account) == (17770, [2000])
    declined = await _declined(client, user, card, "50")
    assert declined["error"] == "insufficient_funds" and declined["fee"] == 0.5
    assert await balances(app, account) == (14770, [1950 + 3000])
    await assert_ledger_consistent(app)


async def test_replenish_without_account_funds_records_nothing(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(
        app,
        client,
        user,
        funds="52.75",
        start_balance="50",
        auto_replenish_amount=30,
        auto_replenish_min_balance=20,
    )
    assert await balances(app, account) == (0, [5000])
    await authorize(client, user, card, "40")
    assert await balances(app, account) == (0, [990])
    report = (
        await client.get(
            "/transaction/report", headers=user.headers, params={"filters[type]": "auto_replenish"}
        )
    ).json()
    assert report["data"] == [] and report["meta"]["total"] == 0
    await assert_ledger_consistent(app)


async def test_concurrent_authorizations_never_overdraw_a_card(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="10")
    responses = await asyncio.gather(*(authorize(client, user, card, "0.90") for _ in range(20)))
    statuses = [r.json()["data"]["status"] for r in responses]
    assert statuses.count("pending") == 10  # 10 × (0.90 + 0.10) = 10.00
    assert (await balances(app, account))[1] == [0]
    await assert_ledger_consistent(app)
    netflix = "SELECT transactions_count FROM transaction_tags WHERE slug = $1"
    assert await app.state.db.reader.value(netflix, "netflix") == 0


async def test_an_unknown_tag_is_answered_before_a_foreign_card(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    owner, stranger = await make_user(app), await make_user(app)
    account, card = await make_card(app, client, owner)
    before = await balances(app, account)
    both = await authorize(client, stranger, card, "1", tag="no-such-shop")
    assert both.status_code == 404 and both.json()["message"] == "Unknown transaction tag."
    foreign = await authorize(client, stranger, card, "1", tag="netflix")
    assert foreign.status_code == 404 and foreign.json()["message"] != both.json()["message"]
    unknown = await authorize(client, owner, card, "1", tag="no-such-shop")
    assert unknown.json()["message"] == "Unknown transaction tag."
    assert await balances(app, account) == before
    await assert_ledger_consistent(app)


async def test_the_users_fee_overrides_apply_with_a_tag(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, other = await make_user(app), await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    _other_account, other_card = await make_card(app, client, other, start_balance="100")
    await set_fee_override(app, user, "card_transaction", "fixed", 25)
    await set_fee_override(app, user, "card_decline", "fixed", 75)
    approved = (await authorize(client, user, card, "10", tag="binance")).json()["data"]
    assert approved["status"] == "pending" and approved["fee"] == 0.25 and approved["flagged"]
    declined = (await authorize(client, user, card, "1000", tag="netflix")).json()["data"]
    assert declined["error"] == "insufficient_funds" and declined["fee"] == 0.75
    assert (await balances(app, account))[1] == [10000 - 1000 - 25 - 75]
    theirs = (await authorize(client, other, other_card, "10", tag="binance")).json()["data"]
    assert theirs["fee"] == 0.1  # the default plan
    await assert_ledger_consistent(app)


async def test_a_decline_for_a_currency_the_card_lacks_charges_no_fee(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """The transaction is in the merchant's currency; a fee in the card's currency could not
    be shown in it, so none is taken (it used to say 0.50 EUR and take 0.50 USD)."""
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="10")
    declined = await _declined(client, user, card, "5", currency="JPY")
    assert declined["error"] == "currency_not_supported" and declined["currency"] == "JPY"
    assert declined["fee"] == 0
    assert (await balances(app, account))[1] == [1000]
    await assert_ledger_consistent(app)


async def test_tag_popularity_counts_every_transaction_carrying_the_tag(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """The purchase, and the refund that carries its tag too."""
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="50")
    purchase = (await authorize(client, user, card, "10", tag="netflix")).json()["data"]
    base = f"/sandbox/transactions/{purchase['uuid']}"
    assert (await client.post(f"{base}/settle", headers=user.headers)).status_code == 201
    refund = await client.post(f"{base}/refund", json={"amount": 2}, headers=user.headers)
    assert refund.status_code == 201
    tags = (await client.get("/dictionary/transaction-tags")).json()["data"]
    assert {t["slug"]: t["transactions_count"] for t in tags}["netflix"] == 2
