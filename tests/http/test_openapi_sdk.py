"""The OpenAPI document is fit for SDK generators: named operations, one tag each, an example
on every body that validates against its schema, links that name real operations, decimals.
The document is the one the app serves (tests/http/conftest.py, made once per process)."""

from __future__ import annotations

import keyword
from typing import Any

import jsonschema_rs

FASTAPI_SUFFIXES = ("_get", "_post", "_put", "_patch", "_delete")


def _operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
    ]


def _invalid(
    examples: list[tuple[str, Any, dict[str, Any]]], document: dict[str, Any]
) -> list[str]:
    """Where each `(where, example, schema)`'s example breaks its schema, with why: every
    example checked by one validator (`prefixItems`: the n-th example against the n-th
    schema, each `$ref` resolved in the document's components), compiled once rather than
    once for each of the ~2,000 examples."""
    checker = jsonschema_rs.Draft202012Validator(
        {"components": document["components"], "prefixItems": [s for _, _, s in examples]}
    )
    values = [example for _, example, _ in examples]
    return [f"{examples[e.instance_path[0]][0]}: {e.message}" for e in checker.iter_errors(values)]


def test_every_operation_id_is_the_handlers_name_not_fastapis(openapi: dict[str, Any]) -> None:
    schema = openapi
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


def test_every_operation_has_one_tag(openapi: dict[str, Any]) -> None:
    for method, path, operation in _operations(openapi):
        assert len(operation["tags"]) == 1, (method, path)


def test_every_json_body_has_an_example_valid_against_its_schema(openapi: dict[str, Any]) -> None:
    examples = []
    for method, path, operation in _operations(openapi):
        bodies = [operation.get("requestBody", {}), *operation["responses"].values()]
        for body in bodies:
            media = body.get("content", {}).get("application/json")
            if media is None:
                continue
            assert "example" in media, (method, path)
            examples.append((f"{method} {path}", media["example"], media["schema"]))
    assert len(examples) > 100
    for name, component in openapi["components"]["schemas"].items():
        examples.append((name, component["example"], component))
    assert _invalid(examples, openapi) == []


def test_links_name_real_operations_and_their_parameters(openapi: dict[str, Any]) -> None:
    schema = openapi
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


def test_money_is_marked_decimal(openapi: dict[str, Any]) -> None:
    components = openapi["components"]["schemas"]
    assert components["AccountRecord"]["properties"]["balance"]["format"] == "decimal"
    assert components["CardRecord"]["properties"]["balance"]["format"] == "decimal"
    buy = components["BuyCardsRequest"]["properties"]["start_balance"]
    assert "decimal" in str(buy)
    assert components["TransactionRecord"]["properties"]["amount"]["format"] == "decimal"
