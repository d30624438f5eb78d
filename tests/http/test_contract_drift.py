"""Contract drift fixed (issue 14): each test failed before its fix."""

from __future__ import annotations

import uuid

import httpx
from fastapi import FastAPI

from tests.factories import bin_uuid, make_account, make_user
from tests.test_errors import assert_error


async def test_nan_and_infinity_amounts_are_422(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    account = await make_account(app, user, funds="100")
    bin_id = await bin_uuid(app)
    for constant in ("NaN", "Infinity", "-Infinity"):
        raw = (
            f'{{"account_uuid": "{account}", "bin_uuid": "{bin_id}", "start_balance": {constant}}}'
        )
        response = await client.post(
            "/card/buy",
            content=raw.encode(),
            headers={**user.headers, "Content-Type": "application/json"},
        )
        body = assert_error(response, 422, "validation_error")
        assert "start_balance" in body["errors"]  # type: ignore[operator]
    cards = await app.state.db.reader.value("SELECT count(*) FROM cards")
    assert cards == 0


async def test_oversized_body_of_another_type_is_413_not_415(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    big = b"x" * (2 * 1024 * 1024)
    response = await client.post(
        "/card/sort", content=big, headers={**user.headers, "Content-Type": "text/plain"}
    )
    assert_error(response, 413, "payload_too_large")


async def test_any_page_is_allowed_and_past_the_end_is_empty(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    await make_account(app, user)
    for path in ("/accounts", "/card", "/transaction/report"):
        for page in (1_000_001, 2**63 - 1):
            response = await client.get(path, params={"page": page}, headers=user.headers)
            assert response.status_code == 200, (path, page, response.text)
            body = response.json()
            assert body["meta"]["current_page"] == page
            data = body["data"]
            items = data.get("items", data.get("cards")) if isinstance(data, dict) else data
            assert items == [], path
        too_big = await client.get(path, params={"page": 2**63}, headers=user.headers)
        assert_error(too_big, 422, "validation_error")


async def test_account_type_filter_must_be_a_dictionary_slug(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    await make_account(app, user, type_="budget")
    found = await client.get("/accounts", params={"filters[type]": "budget"}, headers=user.headers)
    assert found.status_code == 200 and len(found.json()["data"]["items"]) == 1
    slugs = (await client.get("/dictionary/account-types")).json()["data"]
    assert "budget" in {entry["slug"] for entry in slugs}
    response = await client.get("/accounts", params={"filters[type]": "nope"}, headers=user.headers)
    body = assert_error(response, 422, "validation_error")
    assert "filters[type]" in body["errors"]  # type: ignore[operator]


async def test_malformed_transaction_image_path_says_transaction_not_found(
    client: httpx.AsyncClient,
) -> None:
    for path in ("/transaction/jpg/x", f"/transaction/jpg/{uuid.uuid4().hex}"):
        response = await client.get(path)
        assert response.status_code == 404
        assert response.json() == {
            "success": False,
            "message": "Transaction not found",
            "code": "not_found",
        }


async def test_every_response_says_nosniff(app: FastAPI, client: httpx.AsyncClient) -> None:
    async def explode() -> None:
        raise RuntimeError("boom")

    app.add_api_route("/boom", explode)
    for path in ("/health", "/nope", "/accounts", "/boom", "/dictionary/fees", "/openapi.json"):
        response = await client.get(path)
        assert response.headers["x-content-type-options"] == "nosniff", path
