"""GET /accounts and GET /account/{uuid}: pages, filters, card_info, team visibility."""

from __future__ import annotations

import uuid

import httpx
from fastapi import FastAPI

from cardservice.accounts.service import set_account_status
from tests.factories import bin_uuid, make_account, make_user


async def test_list_accounts_oldest_first_with_meta(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    created = [await make_account(app, user, name=f"Acc {i}", funds="10") for i in range(3)]
    response = await client.get("/accounts", headers=user.headers, params={"per_page": 2})
    body = response.json()
    assert body["success"] is True
    assert body["meta"] == {"current_page": 1, "per_page": 2, "total": 3, "last_page": 2}
    assert [a["uuid"] for a in body["data"]["items"]] == [str(u) for u in created[:2]]
    assert body["data"]["related_team_accounts"] == []
    item = body["data"]["items"][0]
    assert item["balance"] == 10 and item["currency"] == "USD" and item["status"] == "active"
    assert item["card_info"] is None and item["cards_count"] == 0
    assert item["owner"] == {"uuid": str(user.uuid), "name": "Test User"}
    assert item["created_at"].endswith("Z")


async def test_total_counts_the_filtered_accounts_on_every_page(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    other = await make_user(app)
    await make_account(app, other, name="Not mine")
    mine = [await make_account(app, user, name=f"Trip {i}") for i in range(3)]
    await make_account(app, user, name="Savings")

    async def page(number: int, **params: str) -> tuple[list[str], int]:
        response = await client.get(
            "/accounts", headers=user.headers, params={"per_page": 2, "page": number, **params}
        )
        body = response.json()
        return [a["uuid"] for a in body["data"]["items"]], body["meta"]["total"]

    assert await page(1) == ([str(u) for u in mine[:2]], 4)
    assert await page(2, **{"filters[search]": "trip"}) == ([str(mine[2])], 3)
    assert await page(5, **{"filters[search]": "trip"}) == ([], 3)  # past the end: still counted


async def test_card_info_is_the_first_open_card(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    account = await make_account(app, user, funds="100")
    bought = await client.post(
        "/card/buy",
        headers=user.headers,
        json={"account_uuid": str(account), "bin_uuid": await bin_uuid(app), "cards_count": 2},
    )
    first, second = (c["uuid"] for c in bought.json()["data"]["cards"])
    record = (await client.get(f"/account/{account}", headers=user.headers)).json()["data"]
    assert record["card_info"]["uuid"] == first and record["cards_count"] == 2
    assert "holder_name" in record["card_info"]
    await client.post("/card/sort", headers=user.headers, json={"card_uuids": [second]})
    record = (await client.get(f"/account/{account}", headers=user.headers)).json()["data"]
    assert record["card_info"]["uuid"] == second


async def test_filters(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    usd = await make_account(app, user, name="Ads budget")
    eur = await make_account(app, user, name="Travel", currency="EUR", type_="budget")
    await app.state.db.transact(lambda tx: set_account_status(tx, eur, "frozen"))

    async def listed(**params: str) -> list[str]:
        response = await client.get("/accounts", headers=user.headers, params=params)
        assert response.status_code == 200, response.text
        return [a["uuid"] for a in response.json()["data"]["items"]]

    assert await listed(**{"filters[currency]": "EUR"}) == [str(eur)]
    assert await listed(**{"filters[status]": "active"}) == [str(usd)]
    assert await listed(**{"filters[type]": "budget"}) == [str(eur)]
    assert await listed(**{"filters[search]": "ads"}) == [str(usd)]
    assert await listed(**{"filters[search]": "%"}) == []
    bad = await client.get("/accounts", headers=user.headers, params={"filters[currency]": "usd"})
    assert bad.status_code == 422


async def test_team_owner_sees_members_accounts_read_only(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    owner = await make_user(app, team="Acme", role="owner")
    member = await make_user(app, team="Acme", role="member")
    outsider = await make_user(app, team="Other", role="owner")
    own = await make_account(app, owner)
    members = await make_account(app, member, name="Member's")
    await make_account(app, outsider)
    body = (await client.get("/accounts", headers=owner.headers)).json()
    assert [a["uuid"] for a in body["data"]["items"]] == [str(own)]
    assert [a["uuid"] for a in body["data"]["related_team_accounts"]] == [str(members)]
    assert body["data"]["related_team_accounts"][0]["owner"]["uuid"] == str(member.uuid)
    assert (await client.get(f"/account/{members}", headers=owner.headers)).status_code == 200
    member_view = (await client.get("/accounts", headers=member.headers)).json()["data"]
    assert member_view["related_team_accounts"] == []
    assert (await client.get(f"/account/{own}", headers=member.headers)).status_code == 404
    assert (await client.get(f"/account/{members}", headers=outsider.headers)).status_code == 404
    refused = await client.post(
        "/card/buy",
        headers=owner.headers,
        json={"account_uuid": str(members), "bin_uuid": await bin_uuid(app)},
    )
    assert refused.status_code == 404  # read-only: the owner cannot spend a member's money


async def test_unknown_account_is_404(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    response = await client.get(f"/account/{uuid.uuid4()}", headers=user.headers)
    assert response.status_code == 404 and response.json()["code"] == "not_found"
