"""Program-wide webhook endpoints (docs/events.md#program-wide-endpoints): the operator's
endpoint receives every cardholder's events through the same queue and delivery loop as the
holders' own — once each, signed as theirs — filtered by type, rotated and deleted as theirs;
its secret is rotated and checked by `keys rotate` / `keys check`; changed (audited) as
theirs; scope and URL refused."""

from __future__ import annotations

import asyncio
import uuid
from collections import defaultdict
from typing import Any

import httpx
import orjson
import pytest
from cryptography.fernet import Fernet
from fastapi import FastAPI
from standardwebhooks import Webhook

from cardservice.config import Settings
from cardservice.db.sql import as_uuid
from cardservice.security import generate_key
from cardservice.webhooks.queue import publish_committed
from cardservice.webhooks.worker import DeliveryWorker
from tests.cli.test_cli import Command
from tests.conftest import TEST_KEY
from tests.factories import make_card, make_user
from tests.operator.helpers import operator_key, send
from tests.security.test_key_rotation import PINNED
from tests.webhooks.receiver import Receiver
from tests.webhooks.test_delivery import endpoint

ALL = "/operator/webhook-endpoints"


async def _program_wide(
    client: httpx.AsyncClient, key: str, url: str, **extra: Any
) -> dict[str, Any]:
    made = await send(client, "POST", ALL, key, {"url": url, **extra})
    assert made.status_code == 201, made.text
    record: dict[str, Any] = made.json()["data"]
    return record


async def _all_delivered(app: FastAPI, endpoint_uuid: str) -> int:
    """Once every event is queued, until none of the endpoint's deliveries is pending; how
    many it has (a delivered one is never attempted again)."""
    await publish_committed(app.state.db)
    reader = app.state.db.reader
    pending = (
        "SELECT count(*) FROM webhook_deliveries WHERE endpoint_uuid = $1 AND status <> 'delivered'"
    )
    while await reader.value(pending, uuid.UUID(endpoint_uuid)):  # noqa: ASYNC110
        await asyncio.sleep(0.05)  # the delivery loop's turn
    count = "SELECT count(*) FROM webhook_deliveries WHERE endpoint_uuid = $1"
    return int(await reader.value(count, uuid.UUID(endpoint_uuid)))


async def test_every_cardholders_event_reaches_the_program_wide_endpoint_once_signed(
    app: FastAPI, client: httpx.AsyncClient, worker: DeliveryWorker
) -> None:
    holders, everything = Receiver(), Receiver()
    await holders.start()
    await everything.start()
    try:
        key = await operator_key(app, "webhooks")
        wide = await _program_wide(client, key, everything.url)
        assert wide["secret"].startswith("whsec_") and wide["event_types"] is None
        ada, bob = await make_user(app), await make_user(app)
        own = await endpoint(client, ada, holders.url)
        await make_card(app, client, ada)
        await make_card(app, client, bob)
        events = await app.state.db.reader.rows("SELECT uuid, user_uuid FROM events")
        assert {as_uuid(e["user_uuid"]) for e in events} == {ada.uuid, bob.uuid}
        assert await _all_delivered(app, wide["uuid"]) == len(events)
        assert await _all_delivered(app, own["uuid"]) == len(
            [e for e in events if as_uuid(e["user_uuid"]) == ada.uuid]
        )
    finally:
        await holders.close()
        await everything.close()
    ids = {str(as_uuid(e["uuid"])) for e in events}
    assert sorted(everything.ids()) == sorted(ids)  # every event, once
    holders_ids = holders.ids()
    assert len(holders_ids) == len(set(holders_ids)) and set(holders_ids) < ids
    verifier = Webhook(wide["secret"])
    bodies = [verifier.verify(r.body, r.headers) for r in everything.received]
    by_object: dict[str, list[int]] = defaultdict(list)
    for body in bodies:
        by_object[body["data"]["uuid"]].append(body["sequence"])
    assert all(sequences == sorted(sequences) for sequences in by_object.values())
    assert len(Webhook(own["secret"]).verify(holders.received[0].body, holders.received[0].headers))


async def test_event_types_narrow_what_it_receives(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver, worker: DeliveryWorker
) -> None:
    key = await operator_key(app, "webhooks")
    wide = await _program_wide(client, key, receiver.url, event_types=["card.created"])
    for _ in range(2):
        await make_card(app, client, await make_user(app))
    cards = await app.state.db.reader.value("SELECT count(*) FROM cards")
    assert await _all_delivered(app, wide["uuid"]) == cards == 2
    types = {Webhook(wide["secret"]).verify(r.body, r.headers)["type"] for r in receiver.received}
    assert types == {"card.created"} and len(receiver.received) == 2


async def test_rotate_list_and_delete_as_a_cardholders_endpoint_each_audited(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver, worker: DeliveryWorker
) -> None:
    key = await operator_key(app, "webhooks")
    wide = await _program_wide(client, key, receiver.url, description="back office")
    one = f"{ALL}/{wide['uuid']}"
    listed = (await send(client, "GET", ALL, key)).json()
    assert [e["uuid"] for e in listed["data"]] == [wide["uuid"]]
    assert listed["data"][0]["secret"] == f"whsec_****{wide['secret'][-4:]}"
    rotated = await send(client, "POST", one + "/rotate-secret", key)
    assert rotated.status_code == 200, rotated.text
    new_secret = rotated.json()["data"]["secret"]
    assert new_secret != wide["secret"]
    user = await make_user(app)
    await make_card(app, client, user)
    await receiver.wait_for(1)
    got = receiver.received[0]
    assert len(got.headers["webhook-signature"].split(" ")) == 2  # old and new sign for 24 h
    for secret in (new_secret, wide["secret"]):
        assert Webhook(secret).verify(got.body, got.headers)["type"]
    # a cardholder's path does not reach it, nor the operator's a cardholder's endpoint
    assert (
        await client.get(f"/webhook-endpoints/{wide['uuid']}", headers=user.headers)
    ).status_code == 404
    theirs = await endpoint(client, user, receiver.url)
    assert (await send(client, "DELETE", f"{ALL}/{theirs['uuid']}", key)).status_code == 404
    deleted = await send(client, "DELETE", one, key)
    assert deleted.status_code == 200 and deleted.json() == {"success": True}
    assert (await send(client, "GET", one, key)).status_code == 404
    assert (
        await app.state.db.reader.value(
            "SELECT count(*) FROM webhook_endpoints WHERE user_uuid IS NULL"
        )
        == 0
    )
    audit = await app.state.db.reader.rows(
        "SELECT action, actor_type, details FROM audit_log WHERE object_type = 'webhook_endpoint'"
        " ORDER BY id"
    )
    assert [(r["action"], r["actor_type"]) for r in audit] == [
        ("webhook_endpoint.created", "operator_key"),
        ("webhook_endpoint.secret_rotated", "operator_key"),
        ("webhook_endpoint.deleted", "operator_key"),
    ]
    assert all(wide["secret"][6:] not in str(r["details"]) for r in audit)


async def test_without_the_scope_or_with_a_bad_url_nothing_is_made(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    others = await operator_key(app, "users", "funding", "cards", "reports", "network")
    refused = await send(client, "POST", ALL, others, {"url": "https://hooks.example.com/in"})
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    assert (await send(client, "GET", ALL, others)).status_code == 403
    user = await make_user(app)
    as_holder = await client.post(
        ALL, json={"url": "https://hooks.example.com/in"}, headers=user.headers
    )
    assert as_holder.status_code == 403
    key = await operator_key(app, "webhooks")
    for body in ({}, {"url": "mailto:ops@example.com"},
                 {"url": "https://x.example/", "event_types": []},
                 {"url": "https://x.example/", "secret": "whsec_mine"}):  # fmt: skip
        bad = await send(client, "POST", ALL, key, body)
        assert bad.status_code == 422 and bad.json()["code"] == "validation_error", body
    app.state.settings = app.state.settings.model_copy(update={"sandbox": False})
    private = await send(client, "POST", ALL, key, {"url": "http://127.0.0.1:18400/hook"})
    assert private.status_code == 422 and private.json()["code"] == "url_not_allowed"
    assert await app.state.db.reader.value("SELECT count(*) FROM webhook_endpoints") == 0
    assert not await app.state.db.reader.value(
        "SELECT count(*) FROM audit_log WHERE object_type = 'webhook_endpoint'"
    )


async def test_keys_rotate_moves_its_secret_and_keys_check_reads_it(
    app: FastAPI,
    client: httpx.AsyncClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The commands in process (tests.cli.test_cli.Command)."""
    key = await operator_key(app, "webhooks")
    wide = await _program_wide(client, key, "https://hooks.example.com/in")
    new_key = generate_key()
    both = settings.model_copy(
        update={"encryption_key": f"{new_key},{TEST_KEY}", "fingerprint_key": PINNED}
    )
    rotated = await Command(both, monkeypatch, capsys).completed("keys", "rotate")
    assert rotated.returncode == 0, rotated.stderr
    stored = await app.state.db.reader.value(
        "SELECT secret_ciphertext FROM webhook_endpoints WHERE uuid = $1", uuid.UUID(wide["uuid"])
    )
    assert Fernet(new_key.encode()).decrypt(bytes(stored)).decode() == wide["secret"]
    new_only = settings.model_copy(update={"encryption_key": new_key, "fingerprint_key": PINNED})
    checked = await Command(new_only, monkeypatch, capsys).completed("keys", "check")
    assert checked.returncode == 0 and "webhook_endpoint 1" in checked.stdout, checked.stderr


async def test_a_change_is_made_as_a_cardholders_and_audited(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "webhooks")
    wide = await _program_wide(client, key, "https://hooks.example.com/in")
    one = f"{ALL}/{wide['uuid']}"
    change = {"event_types": ["clearing_file.ingested", "card.updated"], "enabled": False}
    changed = await send(client, "PATCH", one, key, change)
    assert changed.status_code == 200, changed.text
    record = changed.json()["data"]
    assert (record["event_types"], record["enabled"], record["url"]) == (
        change["event_types"],
        False,
        wide["url"],
    )
    assert record["secret"] == f"whsec_****{wide['secret'][-4:]}"
    bad = await send(client, "PATCH", one, key, {"event_types": ["card.eaten"]})
    assert bad.status_code == 422 and bad.json()["code"] == "validation_error"
    user = await make_user(app)
    as_holder = await client.patch(one, json={"enabled": True}, headers=user.headers)
    assert as_holder.status_code == 403
    theirs = await endpoint(client, user, "https://hooks.example.com/theirs")
    missing = await send(client, "PATCH", f"{ALL}/{theirs['uuid']}", key, {"enabled": False})
    assert missing.status_code == 404
    assert (await send(client, "GET", one, key)).json()["data"]["enabled"] is False
    audit = await app.state.db.reader.rows(
        "SELECT details FROM audit_log WHERE action = 'webhook_endpoint.updated'"
    )
    assert [orjson.loads(r["details"]) for r in audit] == [change]
