"""A webhook secret the configured keys cannot read fails only its own endpoint (docs/events.md,
"Delivery"): its attempts are recorded `secret_unreadable` and counted on `/metrics`, nothing
is sent to it, and every other endpoint — also one made under the same keys — goes on
receiving, verified with the `standardwebhooks` library. Rotating the lost secret restores it."""

from __future__ import annotations

import uuid

import httpx
from cryptography.fernet import Fernet
from fastapi import FastAPI
from prometheus_client import REGISTRY
from standardwebhooks import Webhook, WebhookVerificationError

from cardservice.db.sql import Tx
from cardservice.security import generate_key
from cardservice.webhooks.worker import DeliveryWorker
from tests.factories import make_user
from tests.webhooks.drive import every_change, post
from tests.webhooks.receiver import Receiver
from tests.webhooks.test_delivery import endpoint, logged


def _unreadable_attempts(endpoint_uuid: str) -> float:
    labels = {"endpoint": endpoint_uuid, "outcome": "secret_unreadable"}
    return REGISTRY.get_sample_value("cardservice_webhook_attempts_total", labels) or 0.0


async def test_an_unreadable_secret_fails_only_its_endpoint(
    app: FastAPI, client: httpx.AsyncClient, worker: DeliveryWorker
) -> None:
    kept, lost = Receiver(), Receiver()
    await kept.start()
    await lost.start()
    try:
        user, other = await make_user(app), await make_user(app)
        types = {"event_types": ["attachment.created"]}
        good = await endpoint(client, user, kept.url, **types)
        bad = await endpoint(client, user, lost.url, **types)
        neighbour = await endpoint(client, other, kept.url, **types)

        async def lose(tx: Tx) -> None:  # encrypted under a key no longer configured
            sealed = Fernet(generate_key().encode()).encrypt(b"whsec_gone")
            await tx.execute(
                "UPDATE webhook_endpoints SET secret_ciphertext = $1 WHERE uuid = $2",
                sealed,
                uuid.UUID(bad["uuid"]),
            )

        await app.state.db.transact(lose)
        await every_change(app, client, user)
        await every_change(app, client, other)
        await kept.wait_for(2)
        by_secret = {good["secret"]: 0, neighbour["secret"]: 0}
        for received in kept.received:
            for secret in by_secret:
                try:
                    Webhook(secret).verify(received.body, received.headers)
                except WebhookVerificationError:  # signed with the other endpoint's secret
                    continue
                by_secret[secret] += 1
        assert list(by_secret.values()) == [1, 1]
        [attempt] = await logged(client, user, bad["uuid"], 1)
        assert attempt["status_code"] is None
        assert attempt["error"].startswith("secret_unreadable")
        assert attempt["next_attempt_at"] is not None  # retried: the key may come back
        assert lost.received == []  # never sent unsigned, nor signed with a guess
        assert _unreadable_attempts(bad["uuid"]) == 1
        assert _unreadable_attempts(good["uuid"]) == 0

        listed = await client.get("/webhook-endpoints", headers=user.headers)
        assert listed.status_code == 200  # the list still answers, the lost secret masked
        secrets = {e["uuid"]: e["secret"] for e in listed.json()["data"]}
        assert secrets[bad["uuid"]] == "whsec_****"
        assert secrets[good["uuid"]] == "whsec_****" + good["secret"][-4:]

        rotated = await post(client, user, f"/webhook-endpoints/{bad['uuid']}/rotate-secret", {})
        assert rotated.status_code == 200, rotated.text
        fresh = rotated.json()["data"]["secret"]
        redelivered = await client.post(
            f"/events/{attempt['event_uuid']}/redeliver", headers=user.headers
        )
        assert redelivered.status_code == 202
        await lost.wait_for(1)
        Webhook(fresh).verify(lost.received[0].body, lost.received[0].headers)
        # the lost previous secret no longer signs: one signature, the new secret's
        assert len(lost.received[0].headers["webhook-signature"].split(" ")) == 1
    finally:
        await kept.close()
        await lost.close()
