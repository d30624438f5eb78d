"""GET /card, GET /card/{uuid}, POST /card/favorite, POST /card/sort."""

from __future__ import annotations

import uuid

import httpx
from fastapi import FastAPI

from tests.factories import Caller, bin_uuid, make_account, make_card, make_user


async def _cards(
    app: FastAPI, client: httpx.AsyncClient, user: Caller, count: int, description: str = "card"
) -> list[str]:
    account = await make_account(app, user, funds="1000")
    response = await client.post(
        "/card/buy",
        headers=user.headers,
        json={
            "account_uuid": str(account),
            "bin_uuid": await bin_uuid(app),
            "cards_count": count,
            "description": description,
        },
    )
    assert response.status_code == 201, response.text
    return [card["uuid"] for card in response.json()["data"]["cards"]]


async def _order(client: httpx.AsyncClient, user: Caller, **params: object) -> list[str]:
    response = await client.get("/card", headers=user.headers, params=params)
    assert response.status_code == 200, response.text
    return [card["uuid"] for card in response.json()["data"]["cards"]]


async def test_list_is_in_card_order_with_meta(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    cards = await _cards(app, client, user, 5)
    response = await client.get("/card", headers=user.headers, params={"per_page": 2, "page": 2})
    body = response.json()
    assert body["meta"] == {"current_page": 2, "per_page": 2, "total": 5, "last_page": 3}
    assert [c["uuid"] for c in body["data"]["cards"]] == cards[2:4]
    past = await client.get("/card", headers=user.headers, params={"page": 9})
    assert past.json()["data"]["cards"] == [] and past.json()["meta"]["total"] == 5
    assert (
        await client.get("/card", headers=user.headers, params={"per_page": 501})
    ).status_code == 422


async def test_walking_pages_returns_every_card_once(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    cards = await _cards(app, client, user, 7)
    seen: list[str] = []
    for page in range(1, 5):
        seen += await _order(client, user, per_page=2, page=page)
    assert seen == cards


async def test_filters(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    first = await _cards(app, client, user, 2, description="Facebook ads")
    second = await _cards(app, client, user, 1, description="Travel")
    assert await _order(client, user, **{"filters[search]": "faceb"}) == first
    card = (await client.get(f"/card/{second[0]}", headers=user.headers)).json()["data"]
    assert second[0] in await _order(client, user, **{"filters[search]": card["last4"]})
    assert await _order(client, user, **{"filters[account_uuid]": card["account_uuid"]}) == second
    await client.post(
        "/card/favorite", headers=user.headers, json={"card_uuids": [first[1]], "is_favorite": True}
    )
    assert await _order(client, user, **{"filters[is_favorite]": "true"}) == [first[1]]
    assert await _order(client, user, **{"filters[status]": "frozen"}) == []
    bad = await client.get("/card", headers=user.headers, params={"filters[color]": "red"})
    assert bad.status_code == 422


async def test_get_card_is_own_only(app: FastAPI, client: httpx.AsyncClient) -> None:
    owner = await make_user(app)
    [card] = await _cards(app, client, owner, 1)
    response = await client.get(f"/card/{card}", headers=owner.headers)
    assert response.status_code == 200 and response.json()["data"]["uuid"] == card
    assert (await client.get(f"/card/{card.upper()}", headers=owner.headers)).status_code == 200
    stranger = await make_user(app)
    assert (await client.get(f"/card/{card}", headers=stranger.headers)).status_code == 404
    assert (await client.get(f"/card/{uuid.uuid4()}", headers=owner.headers)).status_code == 404


async def test_favorite_is_all_or_nothing(app: FastAPI, client: httpx.AsyncClient) -> None:
    owner, stranger = await make_user(app), await make_user(app)
    mine = await _cards(app, client, owner, 2)
    theirs = await _cards(app, client, stranger, 1)
    response = await client.post(
        "/card/favorite",
        headers=owner.headers,
        json={"card_uuids": [mine[0], theirs[0]], "is_favorite": True},
    )
    assert response.status_code == 404
    assert await _order(client, owner, **{"filters[is_favorite]": "true"}) == []
    ok = await client.post(
        "/card/favorite", headers=owner.headers, json={"card_uuids": mine, "is_favorite": True}
    )
    assert ok.status_code == 200 and ok.json() == {"success": True}
    assert await _order(client, owner, **{"filters[is_favorite]": "true"}) == mine
    dup = await client.post(
        "/card/favorite",
        headers=owner.headers,
        json={"card_uuids": [mine[0], mine[0]], "is_favorite": False},
    )
    assert dup.status_code == 422
    empty = await client.post(
        "/card/favorite", headers=owner.headers, json={"card_uuids": [], "is_favorite": False}
    )
    assert empty.status_code == 422


async def test_sort_puts_cards_first_and_keeps_the_rest(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    a, b, c, d, e = await _cards(app, client, user, 5)
    response = await client.post("/card/sort", headers=user.headers, json={"card_uuids": [d, b]})
    assert response.status_code == 200 and response.json() == {"success": True}
    assert await _order(client, user) == [d, b, a, c, e]
    sort_orders = [
        c["sort_order"]
        for c in (await client.get("/card", headers=user.headers)).json()["data"]["cards"]
    ]
    assert sort_orders == [1, 2, 3, 4, 5]
    stranger = await make_user(app)
    [foreign] = await _cards(app, client, stranger, 1)
    refused = await client.post(
        "/card/sort", headers=user.headers, json={"card_uuids": [e, foreign]}
    )
    assert refused.status_code == 404
    assert await _order(client, user) == [d, b, a, c, e]


async def test_search_by_the_shown_mask_finds_cards_of_eight_digit_bins(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """The mask shows six BIN digits (`400005******1234`) even for the BIN 40000566."""
    user = await make_user(app)
    _account, card_uuid = await make_card(app, client, user, currency="EUR")
    card = (await client.get(f"/card/{card_uuid}", headers=user.headers)).json()["data"]
    assert len(card["bin"]) == 8 and card["mask"].startswith(card["bin"][:6] + "******")
    found = await client.get(
        "/card", headers=user.headers, params={"filters[search]": card["mask"]}
    )
    assert [c["uuid"] for c in found.json()["data"]["cards"]] == [card_uuid]
