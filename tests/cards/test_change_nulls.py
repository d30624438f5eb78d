"""`PATCH /card/{uuid}`: the served schema and the behaviour agree about `null` (issue 28,
item 9). `status` was documented as nullable but `null` was refused; now each field the
schema lets be null is accepted as null, and each it does not is refused (422 naming it)."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi import FastAPI

from tests.factories import make_card, make_user


def _admits_null(schema: dict[str, Any]) -> bool:
    kinds = schema.get("type")
    if kinds == "null" or (isinstance(kinds, list) and "null" in kinds):
        return True
    return any(_admits_null(option) for option in schema.get("anyOf", []) + schema.get("oneOf", []))


async def test_each_field_is_nullable_exactly_when_the_schema_says(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    doc = (await client.get("/openapi.json")).json()
    fields = doc["components"]["schemas"]["CardChangeRequest"]["properties"]
    assert not _admits_null(fields["status"]) and "default" not in fields["status"]
    disagree = []
    for name, schema in fields.items():
        _account, card = await make_card(app, client, user)
        response = await client.patch(f"/card/{card}", json={name: None}, headers=user.headers)
        refused = response.status_code == 422 and name in response.json().get("errors", {})
        if _admits_null(schema) == refused or response.status_code not in (200, 422):
            disagree.append((name, _admits_null(schema), response.status_code, response.text[:150]))
    assert disagree == []
