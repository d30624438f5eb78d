"""Every framework and service error answers with the docs/api.md#errors body."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from tests.factories import make_user


def assert_error(response: httpx.Response, status: int, code: str) -> dict[str, object]:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["success"] is False
    assert body["code"] == code
    assert isinstance(body["message"], str) and body["message"]
    assert "Traceback" not in response.text
    return body


async def test_unknown_route_is_404(client: httpx.AsyncClient) -> None:
    assert_error(await client.get("/nope"), 404, "not_found")


async def test_wrong_method_is_405(client: httpx.AsyncClient) -> None:
    response = await client.delete("/dictionary/fees")
    assert_error(response, 405, "method_not_allowed")
    assert response.headers["allow"] == "GET"


async def test_path_pattern_mismatch_is_404_before_auth(client: httpx.AsyncClient) -> None:
    for path in [
        "/card/not-a-uuid",
        "/account/123",
        "/transaction/zzz",
        "/transaction/jpg/x",
        "/payment/currencies/Bad_Slug!",
        "/payment/currencies/" + "a" * 65,
    ]:
        assert_error(await client.get(path), 404, "not_found")


async def test_anonymous_bad_body_is_401(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/card/buy", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert_error(response, 401, "unauthenticated")


async def test_malformed_json_is_400(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    for raw in [b"{not json", b"[1, 2]", b"", b'"text"']:
        response = await client.post(
            "/card/favorite",
            content=raw,
            headers={**user.headers, "Content-Type": "application/json"},
        )
        assert_error(response, 400, "bad_request")


async def test_wrong_content_type_is_415(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    response = await client.post(
        "/card/favorite",
        content=b"card_uuids=1",
        headers={**user.headers, "Content-Type": "text/plain"},
    )
    assert_error(response, 415, "unsupported_media_type")


async def test_oversized_body_is_413(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    big = b'{"card_uuids": ["' + b"a" * (2 * 1024 * 1024) + b'"]}'
    response = await client.post(
        "/card/sort", content=big, headers={**user.headers, "Content-Type": "application/json"}
    )
    assert_error(response, 413, "payload_too_large")


async def test_validation_errors_name_the_fields(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    response = await client.post(
        "/card/favorite",
        json={"card_uuids": "x", "is_favorite": "yes", "extra": 1},
        headers=user.headers,
    )
    body = assert_error(response, 422, "validation_error")
    errors = body["errors"]
    assert isinstance(errors, dict)
    assert {"card_uuids", "is_favorite", "extra"} <= set(errors)


async def test_query_validation_is_422(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    for params in (
        {"page": 0},
        {"per_page": 101},
        {"page": "x"},
        {"filters[nope]": "1"},
        {"filters[status]": "weird"},
    ):
        response = await client.get("/accounts", params=params, headers=user.headers)
        body = assert_error(response, 422, "validation_error")
        assert body["errors"]


async def test_request_id_is_echoed_or_made(client: httpx.AsyncClient) -> None:
    made = await client.get("/health")
    assert len(made.headers["x-request-id"]) >= 16
    echoed = await client.get("/health", headers={"X-Request-ID": "client-req-12345"})
    assert echoed.headers["x-request-id"] == "client-req-12345"
    junk = await client.get("/nope", headers={"X-Request-ID": "bad id with spaces"})
    assert junk.headers["x-request-id"] != "bad id with spaces"


async def test_unexpected_failure_is_500_without_trace(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    async def explode() -> None:
        raise RuntimeError("secret internals")

    app.add_api_route("/boom", explode)
    response = await client.get("/boom", headers={"X-Request-ID": "trace-me-123456"})
    body = assert_error(response, 500, "internal_error")
    assert body["request_id"] == "trace-me-123456"
    assert "secret internals" not in response.text


async def test_health_and_ready(client: httpx.AsyncClient) -> None:
    assert (await client.get("/health")).json() == {"success": True, "data": {"status": "ok"}}
    assert (await client.get("/ready")).json()["data"]["status"] == "ready"
