"""An endpoint deleted while its deliveries are in flight takes only its own attempts with it
(issue 28, item 8): the batch that records a step's attempts failed as a whole (`FOREIGN
KEY constraint failed`), so every other endpoint's deliveries were sent again after their
lease. Claims, POSTs to real loopback receivers and the record are made by hand, with the
endpoint deleted between the POST and the record."""

from __future__ import annotations

import random
import uuid
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import timedelta

import httpx
from fastapi import FastAPI

from cardservice.infra.outbound import Outbound
from cardservice.webhooks.delivery import Finished, claim, record
from cardservice.webhooks.delivery import post as post_attempt
from cardservice.webhooks.queue import publish_committed
from tests.factories import Caller, make_card, make_user
from tests.webhooks.drive import post
from tests.webhooks.receiver import Receiver

ENDPOINTS = 4


@asynccontextmanager
async def receivers(count: int) -> AsyncIterator[list[Receiver]]:
    async with AsyncExitStack() as stack:
        started = []
        for _ in range(count):
            receiver = Receiver()
            await receiver.start()
            stack.push_async_callback(receiver.close)
            started.append(receiver)
        yield started


async def _hooked_user(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver
) -> tuple[Caller, str]:
    user = await make_user(app)
    hook = await post(client, user, "/webhook-endpoints", {"url": receiver.url})
    assert hook.status_code == 201, hook.text
    await make_card(app, client, user)  # card.created and the purchase's events
    return user, hook.json()["data"]["uuid"]


async def test_a_deleted_endpoint_does_not_undo_the_others_attempts(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    state = app.state
    db = state.db
    async with receivers(ENDPOINTS) as listening:
        hooked = [await _hooked_user(app, client, r) for r in listening]
        await publish_committed(db)
        claimed = await claim(db, state.cipher, timedelta(minutes=5), 100)
        assert {str(c.endpoint_uuid) for c in claimed} == {hook for _user, hook in hooked}
        async with Outbound() as outbound:
            finished = [
                Finished.of(c, await post_attempt(outbound, c, state.settings), random.Random(1))
                for c in claimed
            ]
    assert all(f.outcome.status_code == 200 for f in finished)
    gone_user, gone = hooked[1]
    deleted = await client.delete(f"/webhook-endpoints/{gone}", headers=gone_user.headers)
    assert deleted.status_code == 200
    await record(db, finished)  # raised IntegrityError (FOREIGN KEY), recording nothing
    kept = [f for f in finished if str(f.claimed.endpoint_uuid) != gone]
    rows = await db.reader.rows("SELECT endpoint_uuid, attempt, status_code FROM webhook_attempts")
    assert sorted(str(uuid.UUID(str(r["endpoint_uuid"]))) for r in rows) == sorted(
        str(f.claimed.endpoint_uuid) for f in kept
    )
    assert {r["status_code"] for r in rows} == {200}
    statuses = await db.reader.rows(
        "SELECT status, COUNT(*) AS n FROM webhook_deliveries GROUP BY status"
    )
    assert {r["status"]: r["n"] for r in statuses} == {"delivered": len(kept)}
