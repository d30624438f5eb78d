"""The delivery queue: committed events are numbered and queued for every enabled endpoint
that wants them — the endpoints of the event's owner, of the owner's team owners (who
read the members' events) and the operator's program-wide ones (every event; an event with
no owner, the operator's own, reaches only these) — in one unit; redelivery and replay queue
them again."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from cardservice.auth import Principal
from cardservice.db.database import Database
from cardservice.db.sql import Tx, as_uuid, text_uuid
from cardservice.events import BATCH, any_unsequenced, events_by_id, own_event_id, sequence_events
from cardservice.models.base import utcnow
from cardservice.webhooks import repository
from cardservice.webhooks.records import event_types_of
from cardservice.webhooks.service import own_endpoint


def _wants(types: list[str] | None, event_type: str) -> bool:
    return types is None or event_type in types


async def _insert(tx: Tx, pairs: Sequence[tuple[UUID, int]], now: datetime) -> int:
    for start in range(0, len(pairs), BATCH):
        await repository.insert_deliveries(tx, pairs[start : start + BATCH], now)
    return len(pairs)


async def queue_for_events(tx: Tx, event_ids: Sequence[int], now: datetime) -> int:
    """Queue each event for every enabled endpoint that receives it; how many queued."""
    if not event_ids:
        return 0
    events = await events_by_id(tx, event_ids)
    # an event with no owner (the operator's own) has no holder's endpoint to reach
    owners = {as_uuid(text_uuid(e["user_uuid"])) for e in events} - {None}
    users = sorted(owners, key=str)
    by_user: dict[str | None, list[tuple[UUID, list[str] | None]]] = {}
    for row in await repository.recipients(tx, users) if users else ():
        endpoint = as_uuid(text_uuid(row["uuid"]))
        assert endpoint is not None
        by_user.setdefault(text_uuid(row["user_uuid"]), []).append(
            (endpoint, event_types_of(row["event_types"]))
        )
    everyone = [
        (as_uuid(text_uuid(row["uuid"])), event_types_of(row["event_types"]))
        for row in await repository.program_wide_recipients(tx)
    ]
    pairs = [
        (endpoint, int(event["id"]))
        for event in events
        for endpoint, types in [*by_user.get(text_uuid(event["user_uuid"]), []), *everyone]
        if endpoint is not None and _wants(types, event["type"])
    ]
    return await _insert(tx, pairs, now)


async def publish_committed(db: Database) -> int:
    """Number every committed event not yet numbered and queue its deliveries, a batch per
    unit (the sequencer's order is only kept if each batch commits before the next)."""

    async def work(tx: Tx) -> int:
        ids = await sequence_events(tx, hooks=db.numbered_hooks)
        await queue_for_events(tx, ids, utcnow())
        return len(ids)

    published = 0
    while await any_unsequenced(db.reader):
        numbered = await db.transact(work)
        published += numbered
        if numbered < BATCH:
            break
    return published


async def redeliver(tx: Tx, caller: Principal, event: UUID, now: datetime) -> int:
    """Queue a numbered event of the caller's own again for every endpoint receiving it.
    A team owner reads the members' events but cannot act on them: theirs are 404 here."""
    event_id = await own_event_id(tx, caller.user_uuid, event)
    return await queue_for_events(tx, [event_id], now)


async def replay(
    tx: Tx,
    caller: Principal | None,
    endpoint: UUID,
    since: datetime,
    until: datetime | None,
    now: datetime,
) -> int:
    """Queue for the endpoint (the caller's; `caller` None: a program-wide one) every event
    it wants created in [since, until) that it never received with a 2xx and that is not
    already waiting for it; how many."""
    owner = None if caller is None else caller.user_uuid
    row = await own_endpoint(tx, owner, endpoint, for_update=True)
    types = event_types_of(row["event_types"])
    rows = await repository.replayable_events(tx, caller, endpoint, since, until)
    pairs = [(endpoint, int(r["id"])) for r in rows if _wants(types, r["type"])]
    return await _insert(tx, pairs, now)
