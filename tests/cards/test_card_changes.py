"""PATCH /card/{cardUuid}: freeze, unfreeze, close (exact money), holder fields, own cards only."""

from __future__ import annotations

import uuid
from decimal import Decimal

import httpx
from fastapi import FastAPI

from cardservice.http.router import dumps
from tests.factories import (
    Caller,
    assert_ledger_consistent,
    authorize,
    balances,
    make_card,
    make_user,
    stored_transactions,
)


async def patch_card(
    client: httpx.AsyncClient, user: Caller, card: str, body: dict[str, object]
) -> httpx.Response:
    return await client.patch(
        f"/card/{card}",
        content=dumps(body),
        headers={**user.headers, "Content-Type": "application/json"},
    )


async def test_a_frozen_card_is_declined_until_unfrozen(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    frozen = await patch_card(client, user, card, {"status": "frozen"})
    assert frozen.status_code == 200, frozen.text
    assert frozen.json()["data"]["status"] == "frozen"
    declined = (await authorize(client, user, card, "10")).json()["data"]
    assert declined["status"] == "declined" and declined["error"] == "card_frozen"
    assert declined["decision"] == "rules" and declined["fee"] == 0.5
    unfrozen = await patch_card(client, user, card, {"status": "active"})
    assert unfrozen.json()["data"]["status"] == "active"
    approved = (await authorize(client, user, card, "10")).json()["data"]
    assert approved["status"] == "pending" and approved["decision"] == "rules"
    assert (await balances(app, account))[1] == [10000 - 50 - 1010]
    await assert_ledger_consistent(app)


async def test_close_returns_balance_and_reversed_holds_to_the_account(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, funds="1000", start_balance="100")
    account_before, _ = await balances(app, account)
    held = (await authorize(client, user, card, "30")).json()["data"]["uuid"]
    settled = (await authorize(client, user, card, "20")).json()["data"]["uuid"]
    settle = await client.post(f"/sandbox/transactions/{settled}/settle", headers=user.headers)
    assert settle.status_code == 201
    # card: 100 - (30 + 0.10) - (20 + 0.10) = 49.80; the hold of 30.10 comes back on close
    assert (await balances(app, account))[1] == [4980]
    closed = await patch_card(client, user, card, {"status": "closed"})
    assert closed.status_code == 200, closed.text
    assert closed.json()["data"]["status"] == "closed" and closed.json()["data"]["balance"] == 0
    assert await balances(app, account) == (account_before + 4980 + 3010, [0])
    purchases = {str(t.uuid): t for t in await stored_transactions(app, "card_purchase")}
    [close] = await stored_transactions(app, "card_close")
    assert purchases[held].status == "reversed"
    assert purchases[settled].status == "completed"
    assert close.amount == 7990 and close.status == "completed"
    assert str(close.card_uuid) == card and close.account_uuid == account
    report = await client.get(
        "/transaction/report", params={"filters[type]": "card_close"}, headers=user.headers
    )
    assert [row["amount"] for row in report.json()["data"]] == [79.9]
    await assert_ledger_consistent(app)


async def test_closed_is_final(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="0")
    assert (await patch_card(client, user, card, {"status": "closed"})).status_code == 200
    for body in ({"status": "active"}, {"description": "again"}, {"status": "closed"}):
        refused = await patch_card(client, user, card, body)
        assert refused.status_code == 422 and refused.json()["code"] == "card_closed", body
    declined = (await authorize(client, user, card, "1")).json()["data"]
    assert declined["error"] == "card_closed" and declined["fee"] == 0
    assert await balances(app, account) == (100000 - 200, [0])
    await assert_ledger_consistent(app)


async def test_holder_description_and_auto_replenish_change_and_stay(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    address = {"line1": "1 Main St", "city": "Springfield", "country": "US"}
    changed = await patch_card(
        client,
        user,
        card,
        {
            "description": "Travel",
            "holder_name": "Ada Lovelace",
            "holder_address": address,
            "auto_replenish": {"enabled": True, "amount": 50, "min_balance": 10},
        },
    )
    assert changed.status_code == 200, changed.text
    data = (await client.get(f"/card/{card}", headers=user.headers)).json()["data"]
    assert data["description"] == "Travel" and data["holder_name"] == "Ada Lovelace"
    assert data["holder_address"] == {**address, "line2": None, "state": None, "postal_code": None}
    assert data["auto_replenish"] == {"enabled": True, "amount": 50, "min_balance": 10}
    assert data["status"] == "active" and data["spending_controls"] is None
    off = await patch_card(
        client, user, card, {"auto_replenish": {"enabled": False}, "holder_address": None}
    )
    data = off.json()["data"]
    assert data["auto_replenish"] == {"enabled": False, "amount": None, "min_balance": None}
    assert data["holder_address"] is None and data["description"] == "Travel"


async def test_bad_changes_are_422_and_change_nothing(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    before = (await client.get(f"/card/{card}", headers=user.headers)).json()["data"]
    for body in (
        {"status": "lost"},
        {"status": None},
        {"colour": "red"},
        {"auto_replenish": {"enabled": True}},
        {"spending_controls": {"daily": -1}},
        {"spending_controls": {"daily": 1.001}},
        {"spending_controls": {"blocked_countries": ["usa"]}},
        {"description": "x", "spending_controls": {"blocked_tags": ["no-such-tag-here"]}},
    ):
        response = await patch_card(client, user, card, body)
        assert response.status_code == 422, (body, response.text)
        assert response.json()["code"] == "validation_error"
    after = (await client.get(f"/card/{card}", headers=user.headers)).json()["data"]
    assert after == before


async def test_only_the_owner_may_change_a_card(app: FastAPI, client: httpx.AsyncClient) -> None:
    # a team's owner may change a member's card (tests/teams/test_owner_cards.py); a teammate,
    # another team's owner and a stranger may not
    member = await make_user(app, team="Acme", role="member")
    teammate = await make_user(app, team="Acme", role="member")
    other_owner = await make_user(app, team="Other", role="owner")
    _account, card = await make_card(app, client, member)
    for caller in (teammate, other_owner, await make_user(app)):
        response = await patch_card(client, caller, card, {"status": "frozen"})
        assert response.status_code == 404 and response.json()["code"] == "not_found"
    missing = await patch_card(client, member, str(uuid.uuid4()), {"status": "frozen"})
    assert missing.status_code == 404
    data = (await client.get(f"/card/{card}", headers=member.headers)).json()["data"]
    assert data["status"] == "active" and Decimal(str(data["balance"])) == 100
