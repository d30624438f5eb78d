"""The operator's own events (docs/events.md#the-operators-own-events): `clearing_file.ingested`
and `card_testing.locked` belong to no cardholder. They are rows of the same events table with
no owner, numbered by the same outbox and delivered by the same loop — to the program-wide
endpoints only, never to a cardholder's, never in a cardholder's `GET /events`; told once per
clearing file (the same file again tells nothing) and once per BIN lock;
never a card number. A program-wide endpoint replays a window it missed, the operator's own
events included."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

import httpx
import orjson
from fastapi import FastAPI
from standardwebhooks import Webhook

from cardservice.db.sql import Tx, as_uuid
from cardservice.models.base import utcnow
from cardservice.network.verification import unknown_number
from cardservice.transactions.card_testing import Merchant
from cardservice.webhooks.queue import publish_committed
from cardservice.webhooks.worker import DeliveryWorker
from tests.clearing.helpers import ipm_file, post_file, presentment, report_of
from tests.factories import make_user
from tests.network.conftest import issue_card, unknown_numbers
from tests.operator.helpers import operator_key, send
from tests.webhooks.receiver import Receiver
from tests.webhooks.test_delivery import endpoint
from tests.webhooks.test_program_wide import _all_delivered, _program_wide

OPERATOR_TYPES = {"clearing_file.ingested", "card_testing.locked"}


def _bodies(receiver: Receiver, secret: str) -> list[dict[str, Any]]:
    """Every request the receiver got, verified with `secret` (Standard Webhooks)."""
    verifier = Webhook(secret)
    return [verifier.verify(r.body, r.headers) for r in receiver.received]


async def _operator_events(app: FastAPI, type_: str) -> list[Any]:
    return list(
        await app.state.db.reader.rows(
            "SELECT uuid, user_uuid, object_uuid, sequence FROM events WHERE type = $1 ORDER BY id",
            type_,
        )
    )


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


async def test_a_clearing_file_is_told_once_to_the_program_wide_endpoint_and_no_cardholder(
    app: FastAPI, client: httpx.AsyncClient, worker: DeliveryWorker
) -> None:
    wide_receiver, holder_receiver = Receiver(), Receiver()
    await wide_receiver.start()
    await holder_receiver.start()
    try:
        wide = await _program_wide(client, await operator_key(app, "webhooks"), wide_receiver.url)
        user = await make_user(app)
        own = await endpoint(client, user, holder_receiver.url)  # every type, before any event
        user, card = await issue_card(app, client, user)
        network = await operator_key(app, "network")
        stranger = unknown_numbers(card, 1)[0]
        first = ipm_file("U54-ONE", [presentment(card.pan, 1234, approval_code="NOAUTH"),
                                     presentment(stranger, 500)])  # fmt: skip
        report = report_of(await post_file(client, network, first))
        assert report["presentments"]["force_posted"] == 1 and len(report["unmatched"]) == 1
        assert report_of(await post_file(client, network, first), 200) == report  # again
        second = ipm_file("U54-TWO", [presentment(card.pan, 700, approval_code="NOAUTH")])
        other = report_of(await post_file(client, network, second))
        told = await _operator_events(app, "clearing_file.ingested")
        files = [report["uuid"], other["uuid"]]
        assert [str(as_uuid(e["object_uuid"])) for e in told] == files  # once per file
        assert all(e["user_uuid"] is None for e in told)
        assert await _all_delivered(app, wide["uuid"]) > len(told)  # the holder's too
        await _all_delivered(app, own["uuid"])
    finally:
        await wide_receiver.close()
        await holder_receiver.close()
    bodies = _bodies(wide_receiver, wide["secret"])
    ingested = sorted(  # arrivals may overtake one another: ordered by `sequence`
        (b for b in bodies if b["type"] == "clearing_file.ingested"), key=lambda b: b["sequence"]
    )
    assert [b["uuid"] for b in ingested] == [str(as_uuid(e["uuid"])) for e in told]
    numbered = await _operator_events(app, "clearing_file.ingested")  # numbered by now
    assert [b["sequence"] for b in ingested] == [e["sequence"] for e in numbered]
    for body in ingested:  # the file's report as the operator reads it
        shown = await send(client, "GET", f"/operator/clearing-files/{body['data']['uuid']}",
                           network)  # fmt: skip
        assert body["data"] == shown.json()["data"]
    assert ingested[0]["data"]["totals"] == [{"currency": "USD", "count": 1, "amount": 12.34}]
    assert ingested[0]["data"]["unmatched"] == [
        {"message_number": report["unmatched"][0]["message_number"], "reason": "unknown card"}
    ]
    assert all(card.pan not in r.body.decode() and stranger not in r.body.decode()
               for r in wide_receiver.received)  # fmt: skip
    holder_types = {b["type"] for b in _bodies(holder_receiver, own["secret"])}
    assert holder_types and not holder_types & OPERATOR_TYPES
    listed = await client.get("/events", params={"limit": 100}, headers=user.headers)
    assert not {e["type"] for e in listed.json()["data"]} & OPERATOR_TYPES
    assert {e["uuid"] for e in listed.json()["data"]} == set(holder_receiver.ids())


async def test_a_bin_lock_is_told_once_to_the_endpoint_that_asked_for_it(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver, worker: DeliveryWorker
) -> None:
    key = await operator_key(app, "webhooks")
    wide = await _program_wide(client, key, receiver.url, event_types=["card_testing.locked"])
    _user, card = await issue_card(app, client)
    numbers = unknown_numbers(card, 25)  # the 21st locks the BIN; 4 more counted on the lock
    at = utcnow()
    for n, pan in enumerate(numbers):
        merchant, now = Merchant("00000000001", f"ROTATE{n:09d}"), at + timedelta(seconds=n)

        async def count(tx: Tx, pan: str = pan, merchant: Merchant = merchant,
                        now: datetime = now) -> None:  # fmt: skip
            await unknown_number(tx, pan, merchant, now)

        await app.state.db.transact(count)
    [told] = await _operator_events(app, "card_testing.locked")
    assert told["user_uuid"] is None
    assert await _all_delivered(app, wide["uuid"]) == 1  # nothing but what it asked for
    [body] = _bodies(receiver, wide["secret"])
    assert body["uuid"] == str(as_uuid(told["uuid"])) and body["type"] == "card_testing.locked"
    data = body["data"]
    assert data["bin"] == card.pan[:6] and data["unknown_numbers"] == 21
    locked_at = _instant(data["locked_at"])
    assert abs((locked_at - (at + timedelta(seconds=20))).total_seconds()) < 1
    assert _instant(data["until"]) - locked_at == timedelta(minutes=30)
    assert not any(pan in receiver.received[0].body.decode() for pan in [card.pan, *numbers])


async def test_a_cardholder_cannot_ask_for_the_operators_events(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    for event_type in sorted(OPERATOR_TYPES):
        made = await client.post(
            "/webhook-endpoints",
            json={"url": "https://hooks.example.com/in", "event_types": [event_type]},
            headers=user.headers,
        )
        assert made.status_code == 422 and made.json()["code"] == "validation_error", made.text
    assert await app.state.db.reader.value("SELECT count(*) FROM webhook_endpoints") == 0
    key = await operator_key(app, "webhooks")
    wide = await _program_wide(client, key, "https://hooks.example.com/in",
                               event_types=sorted(OPERATOR_TYPES))  # fmt: skip
    assert wide["event_types"] == sorted(OPERATOR_TYPES)
    assert uuid.UUID(wide["uuid"])


async def test_a_program_wide_endpoint_replays_what_it_missed_the_operators_own_too(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver, worker: DeliveryWorker
) -> None:
    user, card = await issue_card(app, client)
    since = utcnow().replace(microsecond=0)
    network = await operator_key(app, "network")
    missed = ipm_file("U54-MISSED", [presentment(card.pan, 900, approval_code="NOAUTH")])
    report_of(await post_file(client, network, missed))
    await publish_committed(app.state.db)  # numbered before the endpoint existed: not queued
    key = await operator_key(app, "webhooks")
    wide = await _program_wide(client, key, receiver.url)
    window = await app.state.db.reader.rows(
        "SELECT uuid, type FROM events WHERE created_at >= $1", since
    )
    assert "clearing_file.ingested" in {e["type"] for e in window}
    path = f"/operator/webhook-endpoints/{wide['uuid']}/replay"
    body = {"since": since.isoformat().replace("+00:00", "Z")}
    held = await client.post(path, json=body, headers=user.headers)
    assert held.status_code == 403  # a cardholder's token
    replayed = await send(client, "POST", path, key, body)
    assert replayed.status_code == 202, replayed.text
    assert replayed.json()["data"] == {"queued": len(window)}
    assert await _all_delivered(app, wide["uuid"]) == len(window)
    assert sorted(receiver.ids()) == sorted(str(as_uuid(e["uuid"])) for e in window)
    again = await send(client, "POST", path, key, body)  # everything received with a 2xx
    assert again.json()["data"] == {"queued": 0}
    audit = await app.state.db.reader.rows(
        "SELECT details FROM audit_log WHERE action = 'webhook_endpoint.replayed' ORDER BY id"
    )
    assert [orjson.loads(r["details"])["queued"] for r in audit] == [len(window), 0]
