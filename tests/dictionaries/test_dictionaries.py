"""Reference dictionaries: contents from the shipped catalogue, caching, popularity."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from tests.factories import authorize, make_card, make_user, set_fee_override

PUBLIC = [
    "/dictionary/transaction-statuses",
    "/dictionary/transaction-errors",
    "/dictionary/account-statuses",
    "/dictionary/account-types",
    "/dictionary/transaction-tags",
    "/dictionary/transaction-tags/blocked",
]


async def _slugs(client: httpx.AsyncClient, path: str) -> list[str]:
    response = await client.get(path)
    assert response.status_code == 200
    return [entry["slug"] for entry in response.json()["data"]]


async def test_statuses_errors_and_types(client: httpx.AsyncClient) -> None:
    assert await _slugs(client, "/dictionary/transaction-statuses") == [
        "pending",
        "completed",
        "declined",
        "reversed",
        "refunded",
    ]
    errors = set(await _slugs(client, "/dictionary/transaction-errors"))
    assert {
        "insufficient_funds",
        "card_frozen",
        "card_closed",
        "card_expired",
        "account_inactive",
        "merchant_blocked",
        "limit_exceeded",
        "invalid_3ds",
        "currency_not_supported",
        "suspected_fraud",
    } <= errors
    assert await _slugs(client, "/dictionary/account-statuses") == ["active", "frozen", "closed"]
    assert {"main", "budget", "team"} <= set(await _slugs(client, "/dictionary/account-types"))
    entry = (await client.get("/dictionary/account-statuses")).json()["data"][0]
    assert set(entry) == {"slug", "name", "description"} and entry["description"]


async def test_popular_tags_are_thirty_ranked_by_use(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    for tag in ("netflix", "uber", "uber"):
        purchase = await authorize(client, user, card, "1", tag=tag)
        assert purchase.json()["data"]["status"] == "pending", purchase.text
    data = (await client.get("/dictionary/transaction-tags")).json()["data"]
    assert len(data) == 30
    assert [tag["slug"] for tag in data[:2]] == ["uber", "netflix"]
    assert [tag["transactions_count"] for tag in data[:3]] == [2, 1, 0]
    rest = [tag["name"] for tag in data[2:]]
    assert rest == sorted(rest)  # ties by name
    assert set(data[0]) == {"slug", "name", "category", "transactions_count", "hold_days"}
    hotel = (
        await client.get("/dictionary/transaction-tags/search", params={"search": "hilton"})
    ).json()["data"][0]
    assert (hotel["category"], hotel["hold_days"]) == ("lodging", 31)
    flight = (
        await client.get("/dictionary/transaction-tags/search", params={"search": "ryanair"})
    ).json()["data"][0]
    assert (flight["category"], flight["hold_days"]) == ("travel", 31)
    assert data[0]["hold_days"] == 7  # uber: transport


async def test_catalogue_is_large_and_has_restrictions(client: httpx.AsyncClient) -> None:
    matches = (
        await client.get("/dictionary/transaction-tags/search", params={"search": "a"})
    ).json()
    assert len(matches["data"]) == 50
    blocked = (await client.get("/dictionary/transaction-tags/blocked")).json()["data"]
    assert {entry["restriction"] for entry in blocked} == {"blocked", "restricted"}
    assert all(entry["reason"] for entry in blocked)


async def test_search_ranks_best_match_first(client: httpx.AsyncClient) -> None:
    response = await client.get("/dictionary/transaction-tags/search", params={"search": "AMAZON"})
    names = [tag["name"] for tag in response.json()["data"]]
    assert names[0] == "Amazon"
    assert all("amazon" in name.lower() for name in names)
    empty = await client.get("/dictionary/transaction-tags/search", params={"search": "zzzqqq"})
    assert empty.json() == {"success": True, "data": []}
    wildcard = await client.get("/dictionary/transaction-tags/search", params={"search": "%"})
    assert wildcard.json()["data"] == []
    for params in ({}, {"search": ""}, {"search": "x" * 65}):
        refused = await client.get("/dictionary/transaction-tags/search", params=params)
        assert refused.status_code == 422 and refused.json()["code"] == "validation_error"


async def test_public_dictionaries_are_cacheable(client: httpx.AsyncClient) -> None:
    for path in PUBLIC:
        first = await client.get(path)
        etag = first.headers["etag"]
        assert first.headers["cache-control"].startswith("public, max-age=")
        again = await client.get(path, headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.content == b""
        assert again.headers["etag"] == etag
        stale = await client.get(path, headers={"If-None-Match": '"other"'})
        assert stale.status_code == 200


async def test_fees_are_the_callers_schedule(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    fees = (await client.get("/dictionary/fees", headers=user.headers)).json()["data"]
    by_slug = {fee["slug"]: fee for fee in fees}
    assert by_slug["card_issue"] == {
        "slug": "card_issue",
        "name": "Card issue",
        "kind": "fixed",
        "amount": 2,
        "currency": None,
    }
    assert by_slug["card_topup"]["kind"] == "percent" and by_slug["card_topup"]["amount"] == 1.5
    assert {"card_transaction", "card_decline"} <= set(by_slug)


async def test_user_fee_overrides_replace_the_default(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, other = await make_user(app), await make_user(app)
    await set_fee_override(app, user, "card_issue", "fixed", 50)
    mine = (await client.get("/dictionary/fees", headers=user.headers)).json()["data"]
    theirs = (await client.get("/dictionary/fees", headers=other.headers)).json()["data"]
    assert next(f for f in mine if f["slug"] == "card_issue")["amount"] == 0.5
    assert next(f for f in theirs if f["slug"] == "card_issue")["amount"] == 2


async def test_bins(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    bins = (await client.get("/dictionary/bins", headers=user.headers)).json()["data"]
    assert {(b["currency"], b["brand"]) for b in bins if b["status"] == "available"} >= {
        ("USD", "visa"),
        ("USD", "mastercard"),
        ("EUR", "visa"),
        ("EUR", "mastercard"),
    }
    assert any(b["status"] == "unavailable" for b in bins)
    assert all(6 <= len(b["bin"]) <= 8 and b["bin"].isdigit() for b in bins)
