"""Webhook endpoint routes (docs/events.md#events-and-webhooks): CRUD, secret rotation, attempts,
replay."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from fastapi import Path, Request

from cardservice.auth.dependencies import CallerA
from cardservice.db.sql import Tx
from cardservice.events import Queued
from cardservice.http.database import Db
from cardservice.http.openapi import BEARER_OR_MFA, Done, Envelope, PagedEnvelope
from cardservice.http.router import (
    JSONResponse,
    Router,
    StandardPage,
    body_schema,
    done,
    ok,
    read_json,
)
from cardservice.infra.outbound import check_url
from cardservice.models.base import utcnow
from cardservice.values.patterns import UUID_PATTERN
from cardservice.webhooks import service
from cardservice.webhooks.queue import replay
from cardservice.webhooks.records import endpoint_record
from cardservice.webhooks.schemas import (
    AttemptRecord,
    EndpointCreate,
    EndpointRecord,
    EndpointUpdate,
    ReplayRequest,
)

router = Router(tags=["webhooks"])
EndpointUuid = Annotated[
    str,
    Path(
        alias="endpointUuid",
        pattern=UUID_PATTERN,
        description="The webhook endpoint's uuid (`GET /webhook-endpoints`)",
    ),
]
ONE = "/webhook-endpoints/{endpointUuid:uuid36}"


async def _check_url(request: Request, url: str) -> None:
    """422 `url_not_allowed` unless the URL may receive webhooks (resolved here, outside
    any transaction)."""
    await check_url(url, request.app.state.settings.private_urls_allowed)


@router.post(
    "/webhook-endpoints",
    status_code=201,
    response_model=Envelope[EndpointRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(EndpointCreate)},
    summary="Add a webhook endpoint (its secret is shown in full only here)",
)
async def create_endpoint(request: Request, caller: CallerA, db: Db) -> JSONResponse:
    """Send the caller's events to this URL (Standard Webhooks: `webhook-id`,
    `webhook-timestamp`, `webhook-signature` headers; retried for about a day). Answers 201
    with the record and its signing `secret` in full — shown only here and on rotation. Private
    and loopback addresses → 422 `url_not_allowed` unless allowed by configuration."""
    body = await read_json(request, EndpointCreate)
    await _check_url(request, body.url)
    cipher = request.app.state.cipher

    async def work(tx: Tx) -> dict[str, Any]:
        return await service.create_endpoint(tx, cipher, caller.user_uuid, body, utcnow())

    return ok(await db.transact(work), status_code=201)


@router.get(
    "/webhook-endpoints",
    response_model=PagedEnvelope[list[EndpointRecord]],
    openapi_extra=BEARER_OR_MFA,
    summary="The caller's webhook endpoints (secrets masked)",
)
async def list_endpoints(
    request: Request, caller: CallerA, db: Db, page: StandardPage
) -> JSONResponse:
    """The caller's webhook endpoints, paginated, secrets masked."""
    records, total = await service.list_endpoints(
        db.reader, request.app.state.cipher, caller.user_uuid, page.offset, page.size
    )
    return ok(records, meta=page.meta(total))


@router.get(
    ONE,
    response_model=Envelope[EndpointRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="Read one webhook endpoint (secret masked)",
)
async def get_endpoint(
    request: Request, caller: CallerA, db: Db, endpoint_uuid: EndpointUuid
) -> JSONResponse:
    """One webhook endpoint (secret masked)."""
    row = await service.own_endpoint(db.reader, caller.user_uuid, uuid.UUID(endpoint_uuid))
    return ok(endpoint_record(row, request.app.state.cipher))


@router.patch(
    ONE,
    response_model=Envelope[EndpointRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(EndpointUpdate)},
    summary="Change a webhook endpoint",
)
async def update_endpoint(
    request: Request, caller: CallerA, db: Db, endpoint_uuid: EndpointUuid
) -> JSONResponse:
    """Change any of the fields sent (URL, description, event types, enabled); the rest stay as
    they are. Disabling stops deliveries; the queue waits."""
    body = await read_json(request, EndpointUpdate)
    if body.url is not None:
        await _check_url(request, body.url)
    cipher = request.app.state.cipher

    async def work(tx: Tx) -> dict[str, Any]:
        return await service.update_endpoint(
            tx, cipher, caller.user_uuid, uuid.UUID(endpoint_uuid), body, utcnow()
        )

    return ok(await db.transact(work))


@router.delete(
    ONE,
    response_model=Done,
    openapi_extra=BEARER_OR_MFA,
    summary="Delete a webhook endpoint, its queue and its attempt log",
)
async def delete_endpoint(caller: CallerA, db: Db, endpoint_uuid: EndpointUuid) -> JSONResponse:
    """Delete the endpoint with its queued deliveries and its attempt log. Answers `{success:
    true}`."""

    async def work(tx: Tx) -> None:
        await service.delete_endpoint(tx, caller.user_uuid, uuid.UUID(endpoint_uuid))

    await db.transact(work)
    return done()


@router.post(
    ONE + "/rotate-secret",
    response_model=Envelope[EndpointRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="A new secret (shown in full); the old one keeps signing for 24 h",
)
async def rotate_secret(
    request: Request, caller: CallerA, db: Db, endpoint_uuid: EndpointUuid
) -> JSONResponse:
    """A new signing secret, shown in full once; for 24 h deliveries are signed with both the
    old and the new secret, so a receiver can switch without losing any."""
    cipher = request.app.state.cipher

    async def work(tx: Tx) -> dict[str, Any]:
        return await service.rotate_secret(
            tx, cipher, caller.user_uuid, uuid.UUID(endpoint_uuid), utcnow()
        )

    return ok(await db.transact(work))


@router.get(
    ONE + "/deliveries",
    response_model=PagedEnvelope[list[AttemptRecord]],
    openapi_extra=BEARER_OR_MFA,
    summary="The endpoint's delivery attempts, newest first",
)
async def deliveries(
    caller: CallerA, db: Db, endpoint_uuid: EndpointUuid, page: StandardPage
) -> JSONResponse:
    """The endpoint's delivery attempts, newest first: event, attempt number, HTTP status or
    error, duration and the next attempt's time."""
    records, total = await service.attempts(
        db.reader, caller.user_uuid, uuid.UUID(endpoint_uuid), page.offset, page.size
    )
    return ok(records, meta=page.meta(total))


@router.post(
    ONE + "/replay",
    status_code=202,
    response_model=Envelope[Queued],
    openapi_extra={**BEARER_OR_MFA, **body_schema(ReplayRequest)},
    summary="Queue every event of a window the endpoint never received with a 2xx",
)
async def replay_window(
    request: Request, caller: CallerA, db: Db, endpoint_uuid: EndpointUuid
) -> JSONResponse:
    """Queue every event of `[since, until)` that this endpoint would receive and never
    answered with a 2xx (202 with the number queued)."""
    body = await read_json(request, ReplayRequest)

    async def work(tx: Tx) -> int:
        return await replay(tx, caller, uuid.UUID(endpoint_uuid), body.since, body.until, utcnow())

    return ok({"queued": await db.transact(work)}, status_code=202)
