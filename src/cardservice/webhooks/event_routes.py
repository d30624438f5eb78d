"""`GET /events`, `GET /events/{uuid}`, `POST /events/{uuid}/redeliver`
(docs/events.md#events-and-webhooks).

The events' HTTP edge lives with the webhooks because it drives their queue (publishing what
committed, redelivering): `events/` below it knows nothing of webhooks."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Path, Query, Request

from cardservice.auth.dependencies import CallerA
from cardservice.db.sql import Tx
from cardservice.events import EVENT_TYPES, EventRecord, EventsEnvelope, Queued, listing
from cardservice.http.database import Db
from cardservice.http.filters import filters_parameter, one_of, read_filters
from cardservice.http.openapi import BEARER_OR_MFA, Envelope
from cardservice.http.router import JSONResponse, Router, ok
from cardservice.models.base import utcnow
from cardservice.values.patterns import UUID_PATTERN
from cardservice.webhooks.queue import publish_committed, redeliver

router = Router(tags=["events"])
EventUuid = Annotated[
    str,
    Path(
        alias="eventUuid",
        pattern=UUID_PATTERN,
        description="The event's uuid (`GET /events`, or the `webhook-id` header of a delivery)",
    ),
]
EVENT_FILTERS = {"type": one_of(*EVENT_TYPES).describe("Only events of this type")}


@router.get(
    "/events",
    response_model=EventsEnvelope,
    openapi_extra={
        **BEARER_OR_MFA,
        **filters_parameter(EVENT_FILTERS),
    },
    summary="The caller's events, oldest first, after a sequence",
)
async def list_events(
    request: Request,
    caller: CallerA,
    db: Db,
    after: Annotated[
        int,
        Query(
            ge=0,
            le=2**62,
            description="Events with a greater `sequence` than this (the last one seen, or "
            "`meta.next_after`); 0, the default, starts from the first",
        ),
    ] = 0,
    limit: Annotated[
        int, Query(ge=1, le=100, description="At most this many events, 1..100 (default 20)")
    ] = 20,
) -> JSONResponse:
    """The caller's events, oldest first, after the sequence `after` (use `meta.next_after` for
    the next call; `meta.has_more` says whether to call again). A team owner also sees the
    members' events."""
    filters = read_filters(request, EVENT_FILTERS)
    await publish_committed(db)  # the stream is whole without a worker running, too
    page, meta = await listing.list_events(db.reader, caller, after, limit, filters.get("type"))
    return ok(page, meta=meta)


@router.get(
    "/events/{eventUuid:uuid36}",
    response_model=Envelope[EventRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="Read one event",
)
async def get_event(caller: CallerA, db: Db, event_uuid: EventUuid) -> JSONResponse:
    """One event: its type, sequence, time and the record of the object after the change."""
    await publish_committed(db)
    return ok(await listing.one_event(db.reader, caller, uuid.UUID(event_uuid)))


@router.post(
    "/events/{eventUuid:uuid36}/redeliver",
    status_code=202,
    response_model=Envelope[Queued],
    openapi_extra=BEARER_OR_MFA,
    summary="Queue an event again for every endpoint that receives it",
)
async def redeliver_event(caller: CallerA, db: Db, event_uuid: EventUuid) -> JSONResponse:
    """Queue the event again for every enabled webhook endpoint of the caller that receives its
    type (202). Read-only callers (a team owner on a member's event) → 404."""

    async def work(tx: Tx) -> int:
        return await redeliver(tx, caller, uuid.UUID(event_uuid), utcnow())

    return ok({"queued": await db.transact(work)}, status_code=202)
