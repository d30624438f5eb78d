"""GET /user/summary agrees with the account and card endpoints to the cent."""

from __future__ import annotations

import uuid
from datetime import timedelta
from decimal import Decimal

import httpx
from fastapi import FastAPI

from cardservice.models.base import utcnow
from tests.factories import (
    assert_ledger_consistent,
    authorize,
    make_card,
    make_mfa_code,
    make_user,
)


async def test_summary_matches_the_lists(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app, team="Acme", role="owner")
    _usd, card = await make_card(app, client, user, funds="300.33", start_balance="40.10")
    await make_card(app, client, user, funds="99.99", start_balance="0", currency="EUR")
    await authorize(client, user, card, "12.34")
    declined = await authorize(client, user, card, "9999")
    assert declined.json()["data"]["status"] == "declined"
    await client.post(
        "/card/favorite", headers=user.headers, json={"card_uuids": [card], "is_favorite": True}
    )
    await client.post(
        "/sandbox/3ds",
        headers=user.headers,
        json={"card_uuid": card, "merchant_name": "Shop", "amount": 1, "currency": "USD"},
    )
    summary = (await client.get("/user/summary", headers=user.headers)).json()["data"]
    accounts = (await client.get("/accounts", headers=user.headers)).json()["data"]["items"]
    cards = (await client.get("/card", headers=user.headers)).json()["data"]["cards"]
    for entry in summary["balances"]:
        currency = entry["currency"]
        assert Decimal(str(entry["accounts_total"])) == sum(
            Decimal(str(a["balance"])) for a in accounts if a["currency"] == currency
        )
        assert Decimal(str(entry["cards_total"])) == sum(
            Decimal(str(c["balance"])) for c in cards if c["currency"] == currency
        )
    assert {b["currency"] for b in summary["balances"]} == {"USD", "EUR"}
    assert summary["accounts"] == {"total": 2, "by_status": {"active": 2, "frozen": 0, "closed": 0}}
    assert summary["cards"] == {"total": 2, "active": 2, "frozen": 0, "closed": 0, "favorite": 1}
    assert summary["spend"] == [
        {"currency": "USD", "today": 12.34, "last_7_days": 12.34, "this_month": 12.34}
    ]
    assert summary["unassigned_3ds_codes"] == 1
    assert summary["user"]["email"] == user.email and summary["user"]["team"]["name"] == "Acme"
    code = await make_mfa_code(app, user)
    assert (await client.get("/user/summary", params={"_code": code})).json()["data"] == summary


async def test_empty_user(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    summary = (await client.get("/user/summary", headers=user.headers)).json()["data"]
    assert summary["balances"] == [] and summary["spend"] == [] and summary["user"]["team"] is None
    assert summary["cards"]["total"] == 0 and summary["unassigned_3ds_codes"] == 0


async def test_spend_follows_status_and_day(app: FastAPI, client: httpx.AsyncClient) -> None:
    """Spend is kept per day by the database: a reversal takes a purchase out, moving its
    date moves it between days, and the kept days always equal the purchases."""
    user = await make_user(app)
    _account, card = await make_card(app, client, user, funds="100", start_balance="50")
    kept = (await authorize(client, user, card, "7.00")).json()["data"]["uuid"]
    undone = (await authorize(client, user, card, "5.00")).json()["data"]["uuid"]
    reversed_ = await client.post(f"/sandbox/transactions/{undone}/reverse", headers=user.headers)
    assert reversed_.status_code == 201, reversed_.text
    spend = (await client.get("/user/summary", headers=user.headers)).json()["data"]["spend"]
    assert spend == [{"currency": "USD", "today": 7, "last_7_days": 7, "this_month": 7}]
    await assert_ledger_consistent(app)

    three_days_ago = utcnow() - timedelta(days=3)
    # a purchase of three days ago: no service makes a transaction in the past
    await app.state.db.transact(
        lambda tx: tx.execute(
            "UPDATE transactions SET created_at = $1 WHERE uuid = $2",
            three_days_ago,
            uuid.UUID(kept),
        )
    )
    spend = (await client.get("/user/summary", headers=user.headers)).json()["data"]["spend"]
    this_month = 7 if three_days_ago.month == utcnow().month else 0
    expected = {"currency": "USD", "today": 0, "last_7_days": 7, "this_month": this_month}
    assert spend == [expected]
    await assert_ledger_consistent(app)
