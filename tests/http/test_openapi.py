"""The served OpenAPI document (tests/http/conftest.py): security per the seed's table,
patterns, error bodies; the docs page."""

from __future__ import annotations

from typing import Any

import httpx

UUID_PATTERN = r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
EITHER = [{"bearerAuth": []}, {"mfaCode": []}]
SEED_SECURITY = {
    ("post", "/card/buy"): EITHER,
    ("post", "/attachment"): EITHER,
    ("get", "/transaction/report"): EITHER,
    ("post", "/card/favorite"): EITHER,
    ("get", "/accounts"): EITHER,
    ("get", "/transaction/jpg/{transactionUuid}"): EITHER,
    ("get", "/transaction/{transactionUuid}"): EITHER,
    ("get", "/payment/currencies/{slug}"): EITHER,
    ("get", "/account/{userAccountUuid}"): EITHER,
    ("get", "/dictionary/transaction-tags/search"): [],
    ("post", "/card/sort"): EITHER,
    ("get", "/dictionary/transaction-tags/blocked"): [],
    ("get", "/dictionary/transaction-statuses"): [],
    ("get", "/dictionary/transaction-errors"): [],
    ("get", "/dictionary/transaction-tags"): [],
    ("get", "/dictionary/fees"): EITHER,
    ("get", "/dictionary/account-statuses"): [],
    ("get", "/user/3ds-unassigned"): [{"bearerAuth": []}],
    ("get", "/dictionary/account-types"): [],
    ("get", "/user/summary"): EITHER,
    ("get", "/card"): EITHER,
    ("get", "/card/{cardUuid}"): EITHER,
}


def test_every_seed_operation_with_its_security(openapi: dict[str, Any]) -> None:
    schema = openapi
    assert schema["components"]["securitySchemes"] == {
        "bearerAuth": {"type": "http", "scheme": "bearer"},
        "mfaCode": {"type": "apiKey", "in": "query", "name": "_code"},
        # docs/operations.md#running-a-program
        "operatorKey": {"type": "http", "scheme": "bearer", "bearerFormat": "csk_"},
    }
    for (method, path), security in SEED_SECURITY.items():
        operation = schema["paths"][path][method]
        assert operation["security"] == security, (method, path)


def test_path_parameters_carry_their_patterns(openapi: dict[str, Any]) -> None:
    schema = openapi
    for path, name in [
        ("/card/{cardUuid}", "cardUuid"),
        ("/account/{userAccountUuid}", "userAccountUuid"),
        ("/transaction/{transactionUuid}", "transactionUuid"),
        ("/transaction/jpg/{transactionUuid}", "transactionUuid"),
    ]:
        [param] = [p for p in schema["paths"][path]["get"]["parameters"] if p["in"] == "path"]
        assert param["name"] == name and param["schema"]["pattern"] == UUID_PATTERN
    [slug] = schema["paths"]["/payment/currencies/{slug}"]["get"]["parameters"]
    assert slug["schema"]["pattern"] == r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$"
    assert slug["schema"]["maxLength"] == 64


def test_bodies_and_errors_are_documented(openapi: dict[str, Any]) -> None:
    schema = openapi
    buy = schema["paths"]["/card/buy"]["post"]
    ref = buy["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    body = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert body["required"] == ["account_uuid", "bin_uuid"]
    assert body["additionalProperties"] is False
    assert buy["responses"]["422"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "ErrorBody"
    )
    assert "x-body-model" not in str(schema)


async def test_the_docs_page_is_served(client: httpx.AsyncClient) -> None:
    docs = await client.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()
