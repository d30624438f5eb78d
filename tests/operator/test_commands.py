"""`cardservice operator-keys` and the CLI's operator commands on the operator's services
(one path: the same audit rows), run in this process on the test database
(`tests.cli.test_cli.Command`; tests/cli proves the process itself)."""

from __future__ import annotations

import json

import httpx
import pytest
from fastapi import FastAPI

from cardservice.config import Settings
from tests.cli.test_cli import Command
from tests.factories import ISSUED_SECRETS


async def test_operator_keys_are_created_listed_and_revoked(
    app: FastAPI,
    client: httpx.AsyncClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cli = Command(settings, monkeypatch, capsys)
    key = await cli.value("operator-keys", "create", "--name", "ops", "--scopes", "users,funding")
    ISSUED_SECRETS.append(key)
    assert key.startswith("csk_")
    headers = {"Authorization": f"Bearer {key}"}
    assert (await client.get("/operator/users", headers=headers)).status_code == 200
    code, listed, _err = await cli("operator-keys", "list")
    assert code == 0 and key not in listed and key[:12] in listed
    assert "funding,users" in listed and "live" in listed
    code, _out, bad = await cli("operator-keys", "create", "--name", "x", "--scopes", "root")
    assert code != 0 and "Traceback" not in bad
    assert await cli.value("operator-keys", "revoke", key[:12]) == "1"
    assert (await client.get("/operator/users", headers=headers)).status_code == 401
    key_uuid = await app.state.db.reader.value("SELECT uuid FROM operator_keys")
    audit = await app.state.db.reader.rows(
        "SELECT action, actor_type, actor_id, object_type, object_uuid, details FROM audit_log"
        " ORDER BY id"
    )
    assert [tuple(row)[:5] for row in audit] == [
        ("operator_key.created", "system", "cli", "operator_key", key_uuid),
        ("operator_key.revoked", "system", "cli", "operator_key", key_uuid),
    ]
    created = json.loads(audit[0]["details"])
    assert created == {"name": "ops", "prefix": key[:12], "scopes": ["funding", "users"]}
    assert audit[1]["details"] is None and key not in str([tuple(row) for row in audit])


async def test_the_clis_user_commands_are_the_operators_path(
    app: FastAPI,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cli = Command(settings, monkeypatch, capsys)
    user = await cli.value("users", "create", "--email", "cli@example.com", "--name", "Cli")
    await cli.value(
        "accounts", "create", "--email", "cli@example.com", "--name", "A", "--currency", "USD"
    )
    token = await cli.value("tokens", "issue", "--email", "cli@example.com")
    ISSUED_SECRETS.append(token)
    code, _out, taken = await cli(
        "users", "create", "--email", "cli@example.com", "--name", "Again"
    )
    assert code == 2 and "email" in taken
    actions = await app.state.db.reader.rows(
        "SELECT action, actor_type, actor_id FROM audit_log ORDER BY created_at"
    )
    assert [a for a, *_ in actions] == ["user.created", "account.created", "user.token_issued"]
    assert {(t, i) for _a, t, i in actions} == {("system", "cli")}
    assert user
