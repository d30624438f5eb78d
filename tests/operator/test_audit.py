"""The audit trail (docs/operations.md#running-a-program): every operator write leaves a row with
its actor, action, object, time and request id; read with the `reports` scope."""

from __future__ import annotations

import json
from decimal import Decimal

import httpx
from fastapi import FastAPI

from tests.factories import make_account, make_user
from tests.operator.helpers import as_operator, operator_key, send


async def test_operator_writes_are_on_the_audit_log(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "users", "funding", "reports")
    created = await client.post(
        "/operator/users",
        json={"email": "au@example.com", "name": "Au"},
        headers={**as_operator(key), "X-Request-ID": "req-audit-1"},
    )
    user = created.json()["data"]["uuid"]
    await send(client, "PATCH", f"/operator/users/{user}", key, {"status": "suspended"})
    token = await send(client, "POST", f"/operator/users/{user}/tokens", key, {})
    assert token.status_code == 422  # refused: no row for it
    holder = await make_user(app)
    account = await make_account(app, holder)
    path = f"/operator/accounts/{account}/credits"
    await send(client, "POST", path, key, {"amount": 5, "external_id": "a-1"})
    await send(client, "POST", path, key, {"amount": 5, "external_id": "a-1"})  # a replay
    log = await send(client, "GET", "/operator/audit-log", key)
    assert log.status_code == 200, log.text
    rows = log.json()["data"]
    assert [r["action"] for r in rows] == [
        "account.credited", "user.updated", "user.created", "operator_key.created",
    ]  # fmt: skip
    assert log.json()["meta"]["total"] == 4
    first = rows[-2]
    assert first["object_type"] == "user" and first["object_uuid"] == user
    assert first["request_id"] == "req-audit-1" and first["created_at"].endswith("Z")
    assert first["actor"]["type"] == "operator_key" and first["actor"]["id"]
    assert rows[1]["details"] == {"status": "suspended"}
    only = await send(client, "GET", "/operator/audit-log?filters[action]=user.created", key)
    assert [r["action"] for r in only.json()["data"]] == ["user.created"]
    assert key not in log.text


async def test_the_audit_log_needs_the_reports_scope(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "users", "funding")
    assert (await send(client, "GET", "/operator/audit-log", key)).status_code == 403


async def test_audit_amounts_are_written_as_the_api_writes_them(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "funding", "reports")
    account = await make_account(app, await make_user(app))
    path = f"/operator/accounts/{account}/credits"
    credited = await send(client, "POST", path, key, {"amount": 500, "external_id": "d-1"})
    assert credited.status_code == 201, credited.text
    stored = await app.state.db.reader.value(
        "SELECT details FROM audit_log WHERE action = 'account.credited'"
    )
    assert '"amount":500.00' in stored and "50000" not in stored
    log = await send(client, "GET", "/operator/audit-log?filters[action]=account.credited", key)
    assert '"amount":500.00' in log.text
    [row] = log.json()["data"]
    assert row["details"]["amount"] == 500 and row["details"]["currency"] == "USD"
    debited = await send(
        client, "POST", f"/operator/accounts/{account}/debits", key,
        {"amount": 0.05, "external_id": "w-1"},
    )  # fmt: skip
    assert debited.status_code == 201, debited.text
    stored = await app.state.db.reader.value(
        "SELECT details FROM audit_log WHERE action = 'account.debited'"
    )
    assert '"amount":0.05' in stored


async def test_no_audit_writer_puts_minor_units(app: FastAPI, client: httpx.AsyncClient) -> None:
    """Every amount any audit row carries reads as the API's decimal (two places)."""
    key = await operator_key(app, "funding", "users", "cards", "reports")
    account = await make_account(app, await make_user(app))
    await send(client, "POST", f"/operator/accounts/{account}/credits", key,
               {"amount": 12.3, "external_id": "c-1"})  # fmt: skip
    rows = await app.state.db.reader.rows("SELECT details FROM audit_log WHERE details IS NOT NULL")
    amounts = [
        (name, value)
        for row in rows
        for name, value in json.loads(row["details"], parse_float=Decimal).items()
        if "amount" in name
    ]
    assert amounts == [("amount", Decimal("12.30"))]
