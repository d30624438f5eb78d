"""`GET /events`, `GET /events/{uuid}`, `POST /events/{uuid}/redeliver` (API.md §9).

The events' HTTP edge lives with the webhooks because it drives their queue (publishing what
committed, redelivering): `events/` below it knows nothing of webhooks."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Path, Query, Request

from cardservice.auth.dependencies import CallerA
from cardservice.db import Db
from cardservice.events import listing
from cardservice.events.schemas import EVENT_TYPES, EventRecord, EventsEnvelope, Queued
from cardservice.filters import filters_parameter, one_of, read_filters
from cardservice.models.base import utcnow
from cardservice.openapi import BEARER_OR_MFA, Envelope
from cardservice.patterns import UUID_PATTERN
from cardservice.sql import Tx
from cardservice.web import JSONResponse, Router, ok
from cardservice.webhooks.queue import publish_committed, redeliver

router = Router(tags=["events"])
EventUuid = Annotated[str, Path(alias="eventUuid", pattern=UUID_PATTERN)]
EVENT_FILTERS = {"type": one_of(*EVENT_TYPES)}


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
    after: Annotated[int, Query(ge=0, le=2**62, description="a sequence; default 0")] = 0,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> JSONResponse:
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
    async def work(tx: Tx) -> int:
        return await redeliver(tx, caller, uuid.UUID(event_uuid), utcnow())

    return ok({"queued": await db.transact(work)}, status_code=202)
