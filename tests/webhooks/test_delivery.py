"""Delivery to a real receiver on loopback: every event type arrives signed (verified with
the `standardwebhooks` package), a 500 is retried after about 5 s with the same
`webhook-id` (the retry's planned instant, as recorded, and the retry not before it), a
hanging receiver is cut at 10 s (its timeout's error), a private address is refused when it is
not allowed, redelivery and replay queue events again."""

from __future__ import annotations

import asyncio
import random
import uuid
from datetime import timedelta
from typing import Any

import httpx
from fastapi import FastAPI
from standardwebhooks import Webhook

from cardservice.db.sql import as_datetime
from cardservice.infra.outbound import Outbound
from cardservice.models.base import utcnow
from cardservice.webhooks.delivery import (
    JITTER,
    RETRY_SCHEDULE,
    Claimed,
    Finished,
    claim,
    record,
    retry_delay,
)
from cardservice.webhooks.delivery import post as post_attempt
from cardservice.webhooks.queue import publish_committed
from cardservice.webhooks.worker import DeliveryWorker
from tests.factories import Caller, make_user
from tests.webhooks.drive import EVERY_TYPE, every_change, post
from tests.webhooks.receiver import Receiver


async def endpoint(
    client: httpx.AsyncClient, user: Caller, url: str, **extra: Any
) -> dict[str, Any]:
    response = await post(client, user, "/webhook-endpoints", {"url": url, **extra})
    assert response.status_code == 201, response.text
    record: dict[str, Any] = response.json()["data"]
    return record


async def attempts(client: httpx.AsyncClient, user: Caller, endpoint_uuid: str) -> list[Any]:
    response = await client.get(
        f"/webhook-endpoints/{endpoint_uuid}/deliveries", headers=user.headers
    )
    assert response.status_code == 200, response.text
    found: list[Any] = response.json()["data"]
    return found


async def logged(
    client: httpx.AsyncClient, user: Caller, endpoint_uuid: str, count: int, seconds: float = 10
) -> list[Any]:
    """The endpoint's attempt log once it holds `count` attempts."""
    async with asyncio.timeout(seconds):
        while len(log := await attempts(client, user, endpoint_uuid)) < count:  # noqa: ASYNC110
            await asyncio.sleep(0.1)
    return log


async def test_every_event_type_is_delivered_and_its_signature_verifies(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver, worker: DeliveryWorker
) -> None:
    user = await make_user(app)
    hook = await endpoint(client, user, receiver.url, description="all")
    assert hook["secret"].startswith("whsec_")
    await every_change(app, client, user)
    events = (await client.get("/events", params={"limit": 100}, headers=user.headers)).json()
    await receiver.wait_for(len(events["data"]))
    verifier = Webhook(hook["secret"])
    bodies = [verifier.verify(r.body, r.headers) for r in receiver.received]
    assert {b["type"] for b in bodies} == EVERY_TYPE
    assert sorted(receiver.ids()) == sorted(e["uuid"] for e in events["data"])
    assert [b["uuid"] for b in bodies] == receiver.ids()  # webhook-id is the event's uuid
    by_uuid = {e["uuid"]: e for e in events["data"]}
    assert all(b == by_uuid[b["uuid"]] for b in bodies)  # the body is the event as served
    log = await logged(client, user, hook["uuid"], len(bodies))
    assert {a["status_code"] for a in log} == {200}
    assert all(a["attempt"] == 1 for a in log)


async def test_a_500_is_retried_after_about_5_seconds_with_the_same_webhook_id(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver, worker: DeliveryWorker
) -> None:
    receiver.answer = lambda n: 500 if n == 1 else 204
    user = await make_user(app)
    hook = await endpoint(client, user, receiver.url, event_types=["attachment.created"])
    await every_change(app, client, user)
    await receiver.wait_for(2, seconds=20)
    first, second = receiver.received[:2]
    assert first.headers["webhook-id"] == second.headers["webhook-id"]
    assert first.body == second.body
    log = await logged(client, user, hook["uuid"], 2)
    assert [(a["attempt"], a["status_code"]) for a in log] == [(2, 204), (1, 500)]
    assert log[1]["next_attempt_at"] is not None and log[0]["next_attempt_at"] is None
    failed = await app.state.db.reader.row(
        "SELECT next_attempt_at, created_at FROM webhook_attempts"
        " WHERE endpoint_uuid = $1 AND attempt = 1",
        uuid.UUID(hook["uuid"]),
    )  # to the microsecond (the API shows whole seconds)
    assert failed is not None
    planned, recorded = as_datetime(failed[0]), as_datetime(failed[1])
    assert planned is not None and recorded is not None
    # planned 5 s ± 10 % after the first attempt ended: after its request arrived (less the
    # millisecond its whole-millisecond duration may drop) and before it was recorded
    shortest, longest = (timedelta(seconds=RETRY_SCHEDULE[0] * (1 + s * JITTER)) for s in (-1, 1))
    assert first.at - timedelta(milliseconds=1) + shortest <= planned <= recorded + longest
    assert second.at >= planned  # retried when due, not before


async def test_a_hanging_receiver_is_cut_at_10_seconds(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver, worker: DeliveryWorker
) -> None:
    receiver.answer = lambda _n: None
    user = await make_user(app)
    hook = await endpoint(client, user, receiver.url, event_types=["attachment.created"])
    await every_change(app, client, user)
    await receiver.wait_for(1)
    log = await logged(client, user, hook["uuid"], 1, seconds=20)
    # the receiver never answers: the attempt ended at the service's timeout, whole
    assert app.state.settings.webhook_timeout_seconds == 10
    assert (log[0]["status_code"], log[0]["error"]) == (None, "timeout after 10 s")
    assert log[0]["duration_ms"] >= 9_900


async def test_a_private_url_is_refused_when_private_addresses_are_not_allowed(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    app.state.settings = app.state.settings.model_copy(update={"sandbox": False})
    assert not app.state.settings.private_urls_allowed
    user = await make_user(app)
    for url in ("http://127.0.0.1:18400/hook", "http://localhost/hook", "http://10.1.2.3/x"):
        response = await post(client, user, "/webhook-endpoints", {"url": url})
        assert response.json()["code"] == "url_not_allowed", url  # the address, not the form
    for url in (
        "http://127.0.0.1:18400/hook",
        "http://localhost/hook",
        "http://10.1.2.3/hook",
        "http://192.168.0.10/",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]/hook",
        "http://[::ffff:127.0.0.1]/hook",
        "http://224.0.0.1/hook",
        "http://0.0.0.0/hook",
        "ftp://example.com/hook",
        "http://user:pw@8.8.8.8/hook",
    ):
        response = await post(client, user, "/webhook-endpoints", {"url": url})
        assert response.status_code == 422, (url, response.text)
        assert response.json()["code"] in ("url_not_allowed", "validation_error"), url
    assert await app.state.db.reader.value("SELECT COUNT(*) FROM webhook_endpoints") == 0


async def test_an_address_that_turned_private_is_refused_at_delivery(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver, worker: DeliveryWorker
) -> None:
    user = await make_user(app)
    hook = await endpoint(client, user, receiver.url, event_types=["attachment.created"])
    app.state.settings = app.state.settings.model_copy(update={"webhook_allow_private": False})
    worker._settings = app.state.settings  # as if the name now resolved to a private address
    await every_change(app, client, user)
    log = await logged(client, user, hook["uuid"], 1)
    assert log[0]["error"].startswith("url_not_allowed") and receiver.received == []


async def test_redeliver_and_replay_queue_events_again(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver, worker: DeliveryWorker
) -> None:
    user = await make_user(app)
    since = utcnow() - timedelta(seconds=1)
    await every_change(app, client, user)
    events = (await client.get("/events", params={"limit": 100}, headers=user.headers)).json()
    count = len(events["data"])
    hook = await endpoint(client, user, receiver.url)  # added after the events
    window = {"since": since.isoformat()}
    replayed = await post(client, user, f"/webhook-endpoints/{hook['uuid']}/replay", window)
    assert replayed.status_code == 202 and replayed.json()["data"] == {"queued": count}
    await receiver.wait_for(count)
    again = await post(client, user, f"/webhook-endpoints/{hook['uuid']}/replay", window)
    assert again.json()["data"] == {"queued": 0}  # every one was received with a 2xx
    first = events["data"][0]["uuid"]
    redelivered = await client.post(f"/events/{first}/redeliver", headers=user.headers)
    assert redelivered.status_code == 202 and redelivered.json()["data"] == {"queued": 1}
    await receiver.wait_for(count + 1)
    assert receiver.ids()[-1] == first and receiver.ids().count(first) == 2
    stranger = await make_user(app)
    hidden = await client.post(f"/events/{first}/redeliver", headers=stranger.headers)
    assert hidden.status_code == 404
    empty = {"since": utcnow().isoformat(), "until": (utcnow() + timedelta(1)).isoformat()}
    none = await post(client, user, f"/webhook-endpoints/{hook['uuid']}/replay", empty)
    assert none.json()["data"] == {"queued": 0}


def test_the_retry_schedule_with_jitter_then_failed() -> None:
    rng = random.Random(1)
    for attempt, seconds in enumerate(RETRY_SCHEDULE, 1):
        for _ in range(50):
            delay = retry_delay(attempt, rng)
            assert delay is not None
            assert seconds * 0.9 <= delay.total_seconds() <= seconds * 1.1
    assert retry_delay(len(RETRY_SCHEDULE) + 1, rng) is None
    assert RETRY_SCHEDULE == (5, 300, 1800, 7200, 18000, 36000, 36000)


async def test_attempts_are_recorded_together_and_only_by_the_attempt_holding_them(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver
) -> None:
    """No loop runs here: claims, attempts and the record are made by hand. The attempts of
    a step go into one unit; an attempt whose lease ran out and whose delivery was claimed
    again is logged, but the delivery is left to the newer attempt."""
    state = app.state
    db = state.db
    user = await make_user(app)
    hook = await endpoint(client, user, receiver.url)
    await every_change(app, client, user)
    await publish_committed(db)
    older = await claim(db, state.cipher, timedelta(0), 100)  # a lease that ends at once
    newer = await claim(db, state.cipher, timedelta(minutes=5), 100)
    assert len(older) >= 3 and {c.delivery_id for c in older} == {c.delivery_id for c in newer}
    assert {c.attempt for c in older} == {1} and {c.attempt for c in newer} == {2}

    async def answered(claimed: Claimed) -> Finished:
        return Finished.of(claimed, await post_attempt(client_for_hooks, claimed, state.settings),
                           random.Random(1))  # fmt: skip

    units = 0
    transact = db.transact

    async def counted(work: Any) -> Any:
        nonlocal units
        units += 1
        return await transact(work)

    db.transact = counted
    async with Outbound() as client_for_hooks:
        await record(db, [await answered(c) for c in older])
        assert units == 1
        pending = "SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'pending'"
        assert await db.reader.value(pending) == len(older)  # the newer attempts hold them
        await record(db, [await answered(c) for c in newer])
    assert units == 2
    assert await db.reader.value(pending) == 0
    logged_attempts = await db.reader.rows(
        "SELECT attempt, status_code FROM webhook_attempts WHERE endpoint_uuid = $1",
        uuid.UUID(hook["uuid"]),
    )
    assert sorted(a["attempt"] for a in logged_attempts) == [1] * len(older) + [2] * len(newer)
    assert {a["status_code"] for a in logged_attempts} == {200}
