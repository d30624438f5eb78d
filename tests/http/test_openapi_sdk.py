"""The OpenAPI document is fit for SDK generators: named operations, one tag each, an example
on every body that validates against its schema, links that name real operations, decimals."""

from __future__ import annotations

import keyword
from typing import Any

import httpx
import jsonschema_rs

FASTAPI_SUFFIXES = ("_get", "_post", "_put", "_patch", "_delete")


async def _schema(client: httpx.AsyncClient) -> dict[str, Any]:
    return (await client.get("/openapi.json")).json()  # type: ignore[no-any-return]


def _operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
    ]


def _valid(value: object, schema: dict[str, Any], document: dict[str, Any]) -> bool:
    resolvable = {**schema, "components": document["components"]}
    return bool(jsonschema_rs.Draft202012Validator(resolvable).is_valid(value))


async def test_every_operation_id_is_the_handlers_name_not_fastapis(
    client: httpx.AsyncClient,
) -> None:
    schema = await _schema(client)
    ids = [operation["operationId"] for _, _, operation in _operations(schema)]
    assert len(ids) == len(set(ids))
    for operation_id in ids:
        assert operation_id.isidentifier() and not keyword.iskeyword(operation_id)
        assert not operation_id.endswith(FASTAPI_SUFFIXES), operation_id
    named = {(m, p): o["operationId"] for m, p, o in _operations(schema)}
    assert named["get", "/accounts"] == "list_accounts"
    assert named["get", "/account/{userAccountUuid}"] == "get_account"
    assert named["get", "/card/{cardUuid}"] == "get_card"
    assert named["post", "/card/buy"] == "buy_cards"
    assert named["get", "/transaction/report"] == "list_transactions"
    assert named["get", "/transaction/jpg/{transactionUuid}"] == "get_receipt"


async def test_every_operation_has_one_tag(client: httpx.AsyncClient) -> None:
    for method, path, operation in _operations(await _schema(client)):
        assert len(operation["tags"]) == 1, (method, path)


async def test_every_json_body_has_an_example_valid_against_its_schema(
    client: httpx.AsyncClient,
) -> None:
    schema = await _schema(client)
    checked = 0
    for method, path, operation in _operations(schema):
        bodies = [operation.get("requestBody", {}), *operation["responses"].values()]
        for body in bodies:
            media = body.get("content", {}).get("application/json")
            if media is None:
                continue
            assert "example" in media, (method, path)
            assert _valid(media["example"], media["schema"], schema), (method, path)
            checked += 1
    assert checked > 100
    for name, component in schema["components"]["schemas"].items():
        assert _valid(component["example"], component, schema), name


async def test_links_name_real_operations_and_their_parameters(
    client: httpx.AsyncClient,
) -> None:
    schema = await _schema(client)
    by_id = {o["operationId"]: o for _, _, o in _operations(schema)}
    buy_links = schema["paths"]["/card/buy"]["post"]["responses"]["201"]["links"]
    assert buy_links["GetCard"] == {
        "operationId": "get_card",
        "parameters": {"cardUuid": "$response.body#/data/cards/0/uuid"},
    }
    report = schema["paths"]["/transaction/report"]["get"]["responses"]["200"]["links"]
    assert report["GetTransaction"]["operationId"] == "get_transaction"
    accounts = schema["paths"]["/accounts"]["get"]["responses"]["200"]["links"]
    assert accounts["GetAccount"]["operationId"] == "get_account"
    for _, _, operation in _operations(schema):
        for response in operation["responses"].values():
            for link in response.get("links", {}).values():
                target = by_id[link["operationId"]]
                names = {p["name"] for p in target["parameters"] if p["in"] == "path"}
                assert set(link["parameters"]) <= names


async def test_money_is_marked_decimal(client: httpx.AsyncClient) -> None:
    components = (await _schema(client))["components"]["schemas"]
    assert components["AccountRecord"]["properties"]["balance"]["format"] == "decimal"
    assert components["CardRecord"]["properties"]["balance"]["format"] == "decimal"
    buy = components["BuyCardsRequest"]["properties"]["start_balance"]
    assert "decimal" in str(buy)
    assert components["TransactionRecord"]["properties"]["amount"]["format"] == "decimal"
