"""The delivery queue: committed events are numbered and queued for every enabled endpoint
that wants them — the endpoints of the event's owner and of the owner's team owners (who
read the members' events) — in one unit; redelivery and replay queue them again."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from cardservice.auth.credentials import Principal
from cardservice.db import Database
from cardservice.events.listing import EventNotFound, visible_to
from cardservice.events.outbox import BATCH, sequence_events
from cardservice.models.base import utcnow
from cardservice.sql import Tx, as_uuid, in_list, insert_sql, text_uuid
from cardservice.webhooks.service import event_types_of, own_endpoint

_DELIVERY_COLUMNS = ("endpoint_uuid", "event_id", "status", "attempts", "next_attempt_at",
                     "created_at")  # fmt: skip
_ANY_UNSEQUENCED = "SELECT 1 FROM events WHERE sequence IS NULL AND data IS NOT NULL LIMIT 1"
_EVENTS = "SELECT id, type, user_uuid FROM events WHERE id IN "
_RECIPIENTS = """
SELECT w.uuid, w.event_types, u.uuid AS user_uuid FROM users u
JOIN users o ON o.uuid = u.uuid
    OR (u.team_uuid IS NOT NULL AND o.team_uuid = u.team_uuid AND o.role = 'owner')
JOIN webhook_endpoints w ON w.user_uuid = o.uuid AND w.enabled
WHERE u.uuid IN """


def _wants(types: list[str] | None, event_type: str) -> bool:
    return types is None or event_type in types


async def _insert(tx: Tx, pairs: Sequence[tuple[UUID, int]], now: datetime) -> int:
    for start in range(0, len(pairs), BATCH):
        chunk = pairs[start : start + BATCH]
        args: list[Any] = []
        for endpoint, event_id in chunk:
            args += [endpoint, event_id, "pending", 0, now, now]
        await tx.execute(insert_sql("webhook_deliveries", _DELIVERY_COLUMNS, len(chunk)), *args)
    return len(pairs)


async def queue_for_events(tx: Tx, event_ids: Sequence[int], now: datetime) -> int:
    """Queue each event for every enabled endpoint that receives it; how many queued."""
    if not event_ids:
        return 0
    events = await tx.rows(_EVENTS + in_list(len(event_ids)), *event_ids)
    users = sorted({as_uuid(text_uuid(e["user_uuid"])) for e in events}, key=str)
    by_user: dict[str, list[tuple[UUID, list[str] | None]]] = {}
    for row in await tx.rows(_RECIPIENTS + in_list(len(users)), *users):
        endpoint = as_uuid(text_uuid(row["uuid"]))
        assert endpoint is not None
        by_user.setdefault(str(text_uuid(row["user_uuid"])), []).append(
            (endpoint, event_types_of(row["event_types"]))
        )
    pairs = [
        (endpoint, int(event["id"]))
        for event in events
        for endpoint, types in by_user.get(str(text_uuid(event["user_uuid"])), [])
        if _wants(types, event["type"])
    ]
    return await _insert(tx, pairs, now)


async def publish_committed(db: Database) -> int:
    """Number every committed event not yet numbered and queue its deliveries, a batch per
    unit (the sequencer's order is only kept if each batch commits before the next)."""

    async def work(tx: Tx) -> int:
        ids = await sequence_events(tx)
        await queue_for_events(tx, ids, utcnow())
        return len(ids)

    published = 0
    while await db.reader.value(_ANY_UNSEQUENCED) is not None:
        numbered = await db.transact(work)
        published += numbered
        if numbered < BATCH:
            break
    return published


_OWN_EVENT = "SELECT id FROM events WHERE uuid = $1 AND sequence IS NOT NULL AND user_uuid = $2"


async def redeliver(tx: Tx, caller: Principal, event: UUID, now: datetime) -> int:
    """Queue a numbered event of the caller's own again for every endpoint receiving it.
    A team owner reads the members' events but cannot act on them: theirs are 404 here."""
    event_id = await tx.value(_OWN_EVENT, event, caller.user_uuid)
    if event_id is None:
        raise EventNotFound()
    return await queue_for_events(tx, [int(event_id)], now)


async def replay(
    tx: Tx,
    caller: Principal,
    endpoint: UUID,
    since: datetime,
    until: datetime | None,
    now: datetime,
) -> int:
    """Queue for the endpoint every event it wants created in [since, until) that it
    never received with a 2xx and that is not already waiting for it; how many."""
    row = await own_endpoint(tx, caller.user_uuid, endpoint, for_update=True)
    types = event_types_of(row["event_types"])
    visible, args = visible_to(caller, 3)
    window = "e.created_at >= $2" + (f" AND e.created_at < ${len(args) + 3}" if until else "")
    rows = await tx.rows(
        f"SELECT e.id, e.type FROM events e WHERE e.sequence IS NOT NULL AND {window} "  # noqa: S608
        f"AND {visible} AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d "
        "WHERE d.event_id = e.id AND d.endpoint_uuid = $1 "
        "AND d.status IN ('delivered', 'pending')) ORDER BY e.sequence",
        endpoint,
        since,
        *args,
        *([until] if until else []),
    )
    pairs = [(endpoint, int(r["id"])) for r in rows if _wants(types, r["type"])]
    return await _insert(tx, pairs, now)
