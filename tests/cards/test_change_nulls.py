"""`PATCH /card/{uuid}`: the served schema and the behaviour agree about `null` (issue 28,
item 9). `status` was documented as nullable but `null` was refused (and a spending limit
the other way round); now each field the schema lets be null, at the top and inside the
nested objects, is accepted as null, and each it does not is refused (422 naming it)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
from fastapi import FastAPI

from tests.factories import make_card, make_user

# The least each nested object needs besides the field tried (auto-replenish: turned off).
BASES: dict[str, dict[str, Any]] = {"auto_replenish": {"enabled": False}}


def _admits_null(schema: dict[str, Any]) -> bool:
    kinds = schema.get("type")
    if kinds == "null" or (isinstance(kinds, list) and "null" in kinds):
        return True
    return any(_admits_null(option) for option in schema.get("anyOf", []) + schema.get("oneOf", []))


def _object_of(schema: dict[str, Any], doc: dict[str, Any]) -> dict[str, Any] | None:
    for option in [schema, *schema.get("anyOf", [])]:
        if "$ref" in option:
            return doc["components"]["schemas"][option["$ref"].rsplit("/", 1)[1]]  # type: ignore[no-any-return]
    return None


def _cases(doc: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], bool]]:
    """(error key, body with one null, whether the schema admits that null)."""
    fields = doc["components"]["schemas"]["CardChangeRequest"]["properties"]
    for name, schema in fields.items():
        yield name, {name: None}, _admits_null(schema)
        nested = _object_of(schema, doc)
        for inner, inner_schema in (nested or {}).get("properties", {}).items():
            body = {name: {**BASES.get(name, {}), inner: None}}
            yield f"{name}.{inner}", body, _admits_null(inner_schema)


async def test_each_field_is_nullable_exactly_when_the_schema_says(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    doc = (await client.get("/openapi.json")).json()
    status = doc["components"]["schemas"]["CardChangeRequest"]["properties"]["status"]
    assert not _admits_null(status) and "default" not in status
    _account, card = await make_card(app, client, user)
    disagree = []
    for key, body, nullable in _cases(doc):
        response = await client.patch(f"/card/{card}", json=body, headers=user.headers)
        refused = response.status_code == 422 and key in response.json().get("errors", {})
        if nullable == refused or response.status_code not in (200, 422):
            disagree.append((key, nullable, response.status_code, response.text[:150]))
    assert disagree == []
