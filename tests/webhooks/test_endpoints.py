"""Webhook endpoints: the caller's own, the secret in full only on create and rotation,
the rotated-out secret signing beside the new one, bad input refused."""

from __future__ import annotations

import uuid

import httpx
from fastapi import FastAPI
from standardwebhooks import Webhook

from cardservice.webhooks.worker import DeliveryWorker
from tests.factories import make_user
from tests.webhooks.drive import every_change, post
from tests.webhooks.receiver import Receiver
from tests.webhooks.test_delivery import endpoint


async def test_crud_masks_the_secret_outside_create_and_rotation(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, other = await make_user(app), await make_user(app)
    hook = await endpoint(client, user, "https://hooks.example.com/in", description="ours")
    secret = hook["secret"]
    assert secret.startswith("whsec_") and len(secret) >= 6 + 32
    one = f"/webhook-endpoints/{hook['uuid']}"
    shown = (await client.get(one, headers=user.headers)).json()["data"]
    assert shown["secret"] == f"whsec_****{secret[-4:]}" and shown["event_types"] is None
    listed = (await client.get("/webhook-endpoints", headers=user.headers)).json()
    assert [e["uuid"] for e in listed["data"]] == [hook["uuid"]] and listed["meta"]["total"] == 1
    assert secret not in str(listed)
    changes = {"event_types": ["card.created"], "enabled": False, "description": None}
    patched = await client.patch(one, json=changes, headers=user.headers)
    assert patched.status_code == 200, patched.text
    assert {k: patched.json()["data"][k] for k in changes} == changes
    back = await client.patch(one, json={"event_types": None}, headers=user.headers)
    assert back.json()["data"]["event_types"] is None and back.json()["data"]["enabled"] is False
    for path in (one, one + "/deliveries"):
        assert (await client.get(path, headers=other.headers)).status_code == 404
    assert (await client.delete(one, headers=other.headers)).status_code == 404
    rotated = await client.post(one + "/rotate-secret", headers=user.headers)
    assert rotated.status_code == 200 and rotated.json()["data"]["secret"] != secret
    deleted = await client.delete(one, headers=user.headers)
    assert deleted.status_code == 200 and deleted.json() == {"success": True}
    assert (await client.get(one, headers=user.headers)).status_code == 404
    assert await app.state.db.reader.value("SELECT COUNT(*) FROM webhook_endpoints") == 0


async def test_bad_endpoint_bodies_are_refused(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    for body in (
        {},
        {"url": ""},
        {"url": "https://x.example/", "event_types": []},
        {"url": "https://x.example/", "event_types": ["card.deleted"]},
        {"url": "https://x.example/", "secret": "whsec_mine"},
        {"url": "mailto:someone@example.com"},
        {"url": "https://x.example:99999/"},
        {"url": "http://[/"},
        {"url": "http://exa mple.com/"},
        {"url": "http://exämple.com/"},
        {"url": "http://example.com/\r\nX-Injected: 1"},
    ):
        response = await post(client, user, "/webhook-endpoints", body)
        assert response.status_code == 422, (body, response.text)
    missing = f"/webhook-endpoints/{uuid.uuid4()}"
    assert (await client.patch(missing, json={}, headers=user.headers)).status_code == 404
    for window in ({"since": "yesterday"}, {"since": 0}, {"since": "2026-11-23T00:00:00"},
                   {"since": "2026-11-23T00:00:00Z", "until": 0}):  # fmt: skip
        replay = await post(client, user, missing + "/replay", window)
        assert replay.status_code == 422, window
    hook = await endpoint(client, user, "https://x.example/")
    enabled = await client.patch(f"/webhook-endpoints/{hook['uuid']}", json={"enabled": 0},
                                 headers=user.headers)  # fmt: skip
    assert enabled.status_code == 422
    assert await app.state.db.reader.value("SELECT COUNT(*) FROM webhook_endpoints") == 1


async def test_a_rotated_secret_signs_beside_the_new_one(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver, worker: DeliveryWorker
) -> None:
    user = await make_user(app)
    hook = await endpoint(client, user, receiver.url, event_types=["attachment.created"])
    rotated = await client.post(
        f"/webhook-endpoints/{hook['uuid']}/rotate-secret", headers=user.headers
    )
    await every_change(app, client, user)
    await receiver.wait_for(1)
    got = receiver.received[0]
    assert len(got.headers["webhook-signature"].split(" ")) == 2
    for secret in (hook["secret"], rotated.json()["data"]["secret"]):
        assert Webhook(secret).verify(got.body, got.headers)["type"] == "attachment.created"


async def test_a_wrong_method_names_every_method_of_the_path(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    for path, allowed in (
        ("/webhook-endpoints", {"GET", "POST"}),
        (f"/webhook-endpoints/{uuid.uuid4()}", {"DELETE", "GET", "PATCH"}),
    ):
        response = await client.put(path, headers=user.headers)
        assert response.status_code == 405 and response.json()["code"] == "method_not_allowed"
        assert set(response.headers["allow"].split(", ")) == allowed
