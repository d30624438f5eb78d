"""No text input may carry U+0000 (issue 28, item 1): PostgreSQL cannot store it (asyncpg
raised `CharacterNotInRepertoireError`, a 500) and SQLite stored it and gave it back in the
CSV export. The rule is one, at the edge: every JSON body, every filter and every text
query parameter refuses it with 422 `validation_error`, before anything is written.

The walk takes every operation of the served OpenAPI document and every text field of its
request body (nested objects and arrays included) and its query parameters (the `filters`
object's keys included), so a field added later is walked without editing this file."""

from __future__ import annotations

import base64
import copy
import json
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
from fastapi import FastAPI

from cardservice.webhooks.queue import publish_committed
from tests.factories import Caller, authorize, bin_uuid, make_card, make_user
from tests.operator.helpers import operator_key
from tests.snapshot import database_rows
from tests.webhooks.drive import PDF, post

NUL = "x\x00y"
Path = tuple[str | int, ...]


def _resolve(schema: dict[str, Any], doc: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def text_paths(schema: dict[str, Any], doc: dict[str, Any], at: Path = ()) -> Iterator[Path]:
    """Every place in a value of `schema` that may hold a string."""
    schema = _resolve(schema, doc)
    seen: set[Path] = set()
    for alternative in schema.get("anyOf", []) + schema.get("oneOf", []):
        for path in text_paths(alternative, doc, at):
            if path not in seen:
                seen.add(path)
                yield path
    kind = schema.get("type")
    if kind == "string" and at not in seen:
        yield at
    elif kind == "object":
        for name, field in schema.get("properties", {}).items():
            yield from text_paths(field, doc, (*at, name))
    elif kind == "array":
        yield from text_paths(schema.get("items", {}), doc, (*at, 0))


def _placed(example: Any, path: Path, value: str) -> Any:
    """`example` with `value` at `path` (containers made where the example has none)."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(head, int):
        items = list(example) if isinstance(example, list) and example else [None]
        items[0] = _placed(items[0], rest, value)
        return items
    body = dict(example) if isinstance(example, dict) else {}
    body[head] = _placed(body.get(head), rest, value)
    return body


async def _objects(
    app: FastAPI, client: httpx.AsyncClient, user: Caller, operator: dict[str, str]
) -> dict[str, str]:
    """One of each object a path names, owned by `user`, so only the NUL can refuse."""
    account, card = await make_card(app, client, user)
    topup = await post(
        client,
        user,
        "/topups",
        {"account_uuid": str(account), "method": "card", "currency": "USD", "amount": 200},
    )
    assert topup.status_code == 201, topup.text
    program = await client.post(
        "/operator/programs",
        content=json.dumps({"name": "Program", "bin_uuids": [await bin_uuid(app)]}),
        headers={**operator, "Content-Type": "application/json"},
    )
    assert program.status_code == 201, program.text
    purchase = await authorize(client, user, card, "10")
    assert purchase.status_code == 201, purchase.text
    upload = await post(client, user, "/attachment", {"type": "receipt", "file": _b64(PDF)})
    assert upload.status_code == 201, upload.text
    transaction = purchase.json()["data"]["uuid"]
    settled = await authorize(client, user, card, "5")
    disputed = settled.json()["data"]["uuid"]
    done = await client.post(f"/sandbox/transactions/{disputed}/settle", headers=user.headers)
    assert done.status_code in (200, 201), done.text
    dispute = await post(
        client, user, "/disputes", {"transaction_uuid": disputed, "reason": "other"}
    )
    assert dispute.status_code == 201, dispute.text
    hook = await post(client, user, "/webhook-endpoints", {"url": "http://127.0.0.1:9/hook"})
    assert hook.status_code == 201, hook.text
    await publish_committed(app.state.db)
    events = await client.get("/events", headers=user.headers)
    return {
        "userAccountUuid": str(account),
        "account_uuid": str(account),
        "cardUuid": card,
        "card_uuid": card,
        "transactionUuid": transaction,
        "transaction_uuid": transaction,
        "disputeUuid": dispute.json()["data"]["uuid"],
        "attachmentUuid": upload.json()["data"]["uuid"],
        "endpointUuid": hook.json()["data"]["uuid"],
        "eventUuid": events.json()["data"][0]["uuid"],
        "bin_uuid": await bin_uuid(app),
        "binUuid": await bin_uuid(app),
        "slug": "usd",
        "userUuid": str(user.uuid),
        "accountUuid": str(account),
        "topupUuid": topup.json()["data"]["uuid"],
        "programUuid": program.json()["data"]["uuid"],
        # a body's text is refused before the object is looked up: any id will do
        "requestUuid": str(uuid.uuid4()),
        "tokenUuid": str(uuid.uuid4()),
        "clearingFileUuid": str(uuid.uuid4()),
    }


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def _with_objects(example: Any, objects: dict[str, str]) -> Any:
    """The schema's example with the test's own objects in place of its placeholder ids."""
    if isinstance(example, dict):
        return {
            key: objects[key] if key in objects else _with_objects(value, objects)
            for key, value in example.items()
        }
    if isinstance(example, list):
        return [_with_objects(item, objects) for item in example]
    return example


def _operations(doc: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, methods in doc["paths"].items():
        for method, operation in methods.items():
            yield method.upper(), path, operation


def _query_cases(operation: dict[str, Any], doc: dict[str, Any]) -> Iterator[tuple[str, str, bool]]:
    """(query parameter as sent, error key, whether the parameter has a pattern of its own —
    a UUID's — that refuses U+0000 first) for every text query input of an operation."""
    for parameter in operation.get("parameters", []):
        if parameter["in"] != "query":
            continue
        schema = _resolve(parameter["schema"], doc)
        if parameter.get("style") == "deepObject":
            for key in schema.get("properties", {}):
                yield f"{parameter['name']}[{key}]", f"{parameter['name']}[{key}]", False
        elif any(path == () for path in text_paths(schema, doc)):
            yield parameter["name"], parameter["name"], parameter["name"] == "starting_after"


def _refused_for_nul(response: httpx.Response, key: str, *, by_pattern: bool = False) -> str | None:
    """None when the answer is 422 naming `key` for its NUL (or, for a parameter whose own
    pattern excludes it, naming `key` at all); otherwise what is wrong."""
    if response.status_code != 422:
        return f"{response.status_code} {response.text[:200]}"
    body = response.json()
    messages = body.get("errors", {}).get(key, [])
    named = bool(messages) if by_pattern else any("NUL" in m for m in messages)
    if body.get("code") != "validation_error" or not named:
        return f"422 without a NUL error for {key}: {body}"
    return None


async def test_every_text_input_of_every_operation_refuses_nul(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    operator = {"Authorization": f"Bearer {await operator_key(app)}"}
    objects = await _objects(app, client, user, operator)
    doc = (await client.get("/openapi.json")).json()
    before = await database_rows(app)
    failures: list[str] = []
    walked = 0
    for method, template, operation in _operations(doc):
        path = template
        for name, value in objects.items():
            path = path.replace("{" + name + "}", value)
        security = operation.get("security")
        headers = {} if security == [] else user.headers
        # the operator API (docs/operations.md#running-a-program)
        if security == [{"operatorKey": []}]:
            headers = operator
        for query, key, by_pattern in _query_cases(operation, doc):
            walked += 1
            response = await client.request(method, path, params={query: NUL}, headers=headers)
            if problem := _refused_for_nul(response, key, by_pattern=by_pattern):
                failures.append(f"{method} {template} ?{query}: {problem}")
        content = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if content is None:
            continue
        schema = _resolve(content["schema"], doc)
        example = _with_objects(copy.deepcopy(schema.get("example", {})), objects)
        for field in text_paths(schema, doc):
            walked += 1
            body = _placed(example, field, NUL)
            response = await post_json(client, method, path, headers, body)
            key = ".".join(str(part) for part in field)
            if problem := _refused_for_nul(response, key):
                failures.append(f"{method} {template} {key}: {problem}")
    assert walked >= 60, walked  # the document was walked, not skipped
    assert failures == []
    assert await database_rows(app) == before


async def post_json(
    client: httpx.AsyncClient, method: str, path: str, headers: dict[str, str], body: Any
) -> httpx.Response:
    return await client.request(
        method,
        path,
        content=json.dumps(body),
        headers={**headers, "Content-Type": "application/json"},
    )


async def test_the_reported_requests_are_422_and_write_nothing(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """The issue's own reproductions, with bodies valid but for the NUL (each was a 500 on
    PostgreSQL, or stored on SQLite)."""
    user = await make_user(app)
    operator = {"Authorization": f"Bearer {await operator_key(app)}"}
    objects = await _objects(app, client, user, operator)
    card, account = objects["cardUuid"], objects["account_uuid"]
    before = await database_rows(app)
    public = await client.get("/dictionary/transaction-tags/search", params={"search": "\x00"})
    assert _refused_for_nul(public, "search") is None, public.text
    for path in ("/accounts", "/card"):
        listed = await client.get(path, params={"filters[search]": NUL}, headers=user.headers)
        assert _refused_for_nul(listed, "filters[search]") is None, listed.text
    buy = {"account_uuid": account, "bin_uuid": objects["bin_uuid"], "start_balance": 1}
    cases: list[tuple[str, str, dict[str, Any], str]] = [
        ("POST", "/card/buy", {**buy, "description": NUL}, "description"),
        ("POST", "/card/buy", {**buy, "external_id": NUL}, "external_id"),
        ("PATCH", f"/card/{card}", {"description": NUL}, "description"),
        ("PATCH", f"/card/{card}", {"holder_name": NUL}, "holder_name"),
        ("POST", "/webhook-endpoints", {"url": "http://127.0.0.1:9/", "description": NUL},
         "description"),
        ("POST", "/sandbox/authorizations",
         {"card_uuid": card, "amount": 1, "currency": "USD", "merchant_name": NUL},
         "merchant_name"),
        ("POST", "/sandbox/authorizations",
         {"card_uuid": card, "amount": 1, "currency": "USD", "merchant_name": "Shop",
          "merchant_city": NUL}, "merchant_city"),
        ("POST", "/card/buy", {**buy, "description": "ok", NUL: 1}, NUL),
    ]  # fmt: skip
    for method, path, body, key in cases:
        response = await post_json(client, method, path, user.headers, body)
        assert _refused_for_nul(response, key) is None, (path, key, response.text)
    assert await database_rows(app) == before
