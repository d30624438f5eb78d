"""Spend in view (docs/transactions.md#spend-in-view): `GET /user/spend` per merchant, card,
tag and member agrees with the purchases to the cent (approved less refunded; declined and
reversed count nothing), a team owner's includes the members', a member's and an outsider's
do not; and the report's `meta.totals` sums what its filtered rows moved."""

from __future__ import annotations

import uuid
from datetime import timedelta
from decimal import Decimal
from typing import Any

import httpx
from fastapi import FastAPI

from cardservice.models.base import utcnow
from tests.factories import Caller, assert_ledger_consistent, authorize, make_card, make_user


async def _spend(client: httpx.AsyncClient, user: Caller, **params: str) -> Any:
    response = await client.get("/user/spend", headers=user.headers, params=params)
    assert response.status_code == 200, response.text
    return response.json()["data"]


async def _settled(
    client: httpx.AsyncClient, user: Caller, card: str, amount: str, **extra: object
) -> str:
    purchase = (await authorize(client, user, card, amount, **extra)).json()["data"]["uuid"]
    settled = await client.post(f"/sandbox/transactions/{purchase}/settle", headers=user.headers)
    assert settled.status_code == 201, settled.text
    return str(purchase)


async def test_spend_per_group_counts_what_moved(app: FastAPI, client: httpx.AsyncClient) -> None:
    team = f"Spend {uuid.uuid4().hex[:6]}"
    owner = await make_user(app, team=team, role="owner")
    member = await make_user(app, team=team, role="member")
    outsider = await make_user(app)
    _a, owner_card = await make_card(app, client, owner, funds="500", start_balance="300")
    _b, member_card = await make_card(app, client, member, funds="500", start_balance="300")
    await _settled(client, owner, owner_card, "12.34", merchant_name="Netflix", tag="netflix")
    hotel = await _settled(client, member, member_card, "40.00", merchant_name="Hotel Lux")
    refund = {"amount": 10}
    refunded = await client.post(
        f"/sandbox/transactions/{hotel}/refund", headers=member.headers, json=refund
    )
    assert refunded.status_code == 201, refunded.text
    await authorize(client, member, member_card, "5.00", merchant_name="Netflix", tag="netflix")
    declined = await authorize(client, owner, owner_card, "9999", merchant_name="Netflix")
    assert declined.json()["data"]["status"] == "declined"
    undone = (await authorize(client, owner, owner_card, "7.00", merchant_name="Cafe")).json()
    back = await client.post(
        f"/sandbox/transactions/{undone['data']['uuid']}/reverse", headers=owner.headers
    )
    assert back.status_code == 201, back.text
    await authorize(client, outsider, (await make_card(app, client, outsider))[1], "3.00")

    by_merchant = await _spend(client, owner)
    assert by_merchant == [
        {"key": "Hotel Lux", "name": "Hotel Lux", "count": 1, "amount": 30, "currency": "USD"},
        {"key": "Netflix", "name": "Netflix", "count": 2, "amount": 17.34, "currency": "USD"},
    ]
    assert await _spend(client, owner, group_by="merchant") == by_merchant
    members = await _spend(client, owner, group_by="member")
    assert [(m["key"], m["amount"]) for m in members] == [
        (str(member.uuid), 35),
        (str(owner.uuid), 12.34),
    ]
    cards = await _spend(client, owner, group_by="card")
    assert [(c["key"], c["count"]) for c in cards] == [(member_card, 2), (owner_card, 1)]
    for row in cards:  # the member's card is the owner's to read (docs/teams.md)
        holder = owner if row["key"] == owner_card else member
        found = await client.get(f"/card/{row['key']}", headers=holder.headers)
        assert row["name"] == found.json()["data"]["mask"]
    tags = await _spend(client, owner, group_by="tag")
    assert [(t["key"], t["amount"]) for t in tags] == [(None, 30), ("netflix", 17.34)]
    assert tags[0]["name"] == "No tag"

    mine = await _spend(client, member, group_by="member")
    assert [(m["key"], m["amount"]) for m in mine] == [(str(member.uuid), 35)]
    assert [m["key"] for m in await _spend(client, outsider)] == ["Netflix"]
    assert await _spend(client, owner, **{"limit": "1"}) == by_merchant[:1]

    # the window: purchases of last month are out of this month's, in theirs
    long_ago = utcnow() - timedelta(days=40)
    await app.state.db.transact(
        lambda tx: tx.execute(
            "UPDATE transactions SET created_at = $1 WHERE uuid = $2", long_ago, uuid.UUID(hotel)
        )
    )
    assert [m["key"] for m in await _spend(client, owner)] == ["Netflix"]
    day = long_ago.date().isoformat()
    old = await _spend(client, owner, **{"from": day, "to": day})
    assert [(m["key"], m["amount"]) for m in old] == [("Hotel Lux", 30)]
    await assert_ledger_consistent(app)


async def test_bad_spend_parameters_are_422(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    for params, field in (
        ({"group_by": "country"}, "group_by"),
        ({"from": "2026-13-01"}, "from"),
        ({"to": "yesterday"}, "to"),
        ({"from": "2026-11-20", "to": "2026-11-19"}, "to"),
        ({"limit": "0"}, "limit"),
    ):
        response = await client.get("/user/spend", headers=user.headers, params=params)
        assert response.status_code == 422, (params, response.text)
        body = response.json()
        assert body["success"] is False and body["code"] == "validation_error", body
        assert field in str(body["errors"]), (field, body)
    assert (await client.get("/user/spend")).status_code == 401


async def test_report_totals_follow_the_filters(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, funds="200", start_balance="100")
    await _settled(client, user, card, "20.00", merchant_name="Books")
    undone = (await authorize(client, user, card, "5.00", merchant_name="Books")).json()
    await client.post(
        f"/sandbox/transactions/{undone['data']['uuid']}/reverse", headers=user.headers
    )
    await authorize(client, user, card, "9999", merchant_name="Books")  # declined: its fee only
    rows = (
        await client.get("/transaction/report", headers=user.headers, params={"per_page": 100})
    ).json()["data"]

    def moved(row: dict[str, Any]) -> tuple[Decimal, Decimal]:
        amount, fee = Decimal(str(row["amount"])), Decimal(str(row["fee"]))
        if row["status"] == "reversed":
            return Decimal(0), Decimal(0)
        charged = amount if row["status"] != "declined" else Decimal(0)
        return (charged + fee, Decimal(0)) if row["direction"] == "debit" else (fee, charged)

    for params in ({"filters[search]": "books"}, {"filters[date_from]": "2000-01-01"}):
        body = (await client.get("/transaction/report", headers=user.headers, params=params)).json()
        matching = [r for r in rows if "search" not in str(params) or r["merchant"]]
        debits = sum((moved(r)[0] for r in matching), Decimal(0))
        credits = sum((moved(r)[1] for r in matching), Decimal(0))
        assert body["meta"]["totals"] == [
            {"currency": "USD", "debits": float(debits), "credits": float(credits)}
        ], params
        keyset = {**params, "starting_after": body["data"][0]["uuid"]}
        after = await client.get("/transaction/report", headers=user.headers, params=keyset)
        assert after.json()["meta"]["totals"] == body["meta"]["totals"]
    assert Decimal(str(body["meta"]["totals"][0]["credits"])) == Decimal("200")  # the deposit
