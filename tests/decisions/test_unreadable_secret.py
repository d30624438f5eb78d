"""A decision-endpoint secret the configured keys cannot read fails only that user's asking
(docs/controls.md, "The decision endpoint"): the endpoint is not called, the authorization
takes `on_timeout` with `decision` = `endpoint_error`, the miss is counted on `/metrics`;
another user's endpoint is still asked and answers."""

from __future__ import annotations

import httpx
from cryptography.fernet import Fernet
from fastapi import FastAPI
from prometheus_client import REGISTRY

from cardservice.db.sql import Tx
from cardservice.security import generate_key
from tests.decisions.conftest import Receiver, use_receiver
from tests.factories import assert_ledger_consistent, authorize, make_card, make_user


def _unreadable() -> float:
    labels = {"kind": "decision_endpoint"}
    return REGISTRY.get_sample_value("cardservice_unreadable_secrets_total", labels) or 0.0


async def test_an_unreadable_decision_secret_fails_only_its_user(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver
) -> None:
    lost, kept = await make_user(app), await make_user(app)
    _a, lost_card = await make_card(app, client, lost, start_balance="100")
    _b, kept_card = await make_card(app, client, kept, start_balance="100")
    await use_receiver(client, lost, receiver, on_timeout="approve")
    await use_receiver(client, kept, receiver)  # the receiver now verifies with this secret

    async def lose(tx: Tx) -> None:  # encrypted under a key no longer configured
        sealed = Fernet(generate_key().encode()).encrypt(b"whsec_gone")
        await tx.execute(
            "UPDATE authorization_endpoints SET secret_ciphertext = $1 WHERE user_uuid = $2",
            sealed,
            lost.uuid,
        )

    await app.state.db.transact(lose)
    before = _unreadable()
    asked = (await authorize(client, lost, lost_card, "10")).json()["data"]
    assert asked["decision"] == "endpoint_error" and asked["status"] == "pending"  # on_timeout
    assert receiver.events == [] and _unreadable() == before + 1
    answered = (await authorize(client, kept, kept_card, "10")).json()["data"]
    assert answered["decision"] == "endpoint" and answered["status"] == "pending"
    assert [event["uuid"] for event in receiver.events] == [answered["uuid"]]
    failures = await app.state.db.reader.value(
        "SELECT consecutive_failures FROM authorization_endpoints WHERE user_uuid = $1", lost.uuid
    )
    assert failures == 1  # its health counts it, as any endpoint error
    await assert_ledger_consistent(app)
