"""`/operator/webhook-endpoints` (scope `webhooks`, docs/events.md#program-wide-endpoints): the
operator's program-wide endpoints. They receive every event of the service and are managed,
queued, signed and delivered as a cardholder's endpoints are — the same service
(`cardservice.webhooks.service` with no user as the owner), queue and delivery loop. Every
write (and replay) is audited (never the secret)."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from fastapi import Depends, Path, Request

from cardservice.db.sql import Tx
from cardservice.events import Queued
from cardservice.http.database import Db
from cardservice.http.openapi import Done, Envelope, PagedEnvelope
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
from cardservice.operator.api_keys import Operator
from cardservice.operator.dependencies import OPERATOR_KEY, acting, operator_with
from cardservice.values.patterns import UUID_PATTERN
from cardservice.webhooks import (
    AttemptRecord,
    ProgramEndpointCreate,
    ProgramEndpointRecord,
    ProgramEndpointUpdate,
    ReplayRequest,
    endpoint_record,
    replay,
    service,
)

router = Router(tags=["operator"])
Webhooks = Annotated[Operator, Depends(operator_with("webhooks"))]
EndpointUuid = Annotated[
    str,
    Path(
        alias="endpointUuid",
        pattern=UUID_PATTERN,
        description="The program-wide endpoint's uuid (`GET /operator/webhook-endpoints`)",
    ),
]
ALL = "/operator/webhook-endpoints"
ONE = ALL + "/{endpointUuid:uuid36}"
PROGRAM_WIDE = None  # the owner of a program-wide endpoint: no user


@router.post(
    ALL,
    status_code=201,
    response_model=Envelope[ProgramEndpointRecord],
    openapi_extra={**OPERATOR_KEY, **body_schema(ProgramEndpointCreate)},
    summary="Add a program-wide webhook endpoint: every cardholder's events and the operator's own",
)
async def create_program_endpoint(request: Request, operator: Webhooks, db: Db) -> JSONResponse:
    """Send every event of the service — each cardholder's, and the operator's own
    (`clearing_file.ingested`, `card_testing.locked`) — to this URL (scope `webhooks`),
    signed as a cardholder's endpoint is (Standard Webhooks). Answers 201 with the record and
    its signing `secret` in full, shown only here and on rotation. `event_types` narrows what
    it receives. Private and loopback addresses → 422 `url_not_allowed` unless allowed by
    configuration. Audited."""
    body = await read_json(request, ProgramEndpointCreate)
    await check_url(body.url, request.app.state.settings.private_urls_allowed)
    by, cipher = acting(request, operator), request.app.state.cipher

    async def work(tx: Tx) -> dict[str, Any]:
        record = await service.create_endpoint(tx, cipher, PROGRAM_WIDE, body, utcnow())
        details = {"url": body.url, "event_types": record["event_types"]}
        await by.record(tx, "webhook_endpoint.created", "webhook_endpoint", record["uuid"], details)
        return record

    return ok(await db.transact(work), status_code=201)


@router.get(
    ALL,
    response_model=PagedEnvelope[list[ProgramEndpointRecord]],
    openapi_extra=OPERATOR_KEY,
    summary="The program-wide webhook endpoints (secrets masked)",
)
async def list_program_endpoints(
    request: Request, _operator: Webhooks, db: Db, page: StandardPage
) -> JSONResponse:
    """The program-wide endpoints, oldest first, paged, secrets masked (scope `webhooks`)."""
    records, total = await service.list_endpoints(
        db.reader, request.app.state.cipher, PROGRAM_WIDE, page.offset, page.size
    )
    return ok(records, meta=page.meta(total))


@router.get(
    ONE,
    response_model=Envelope[ProgramEndpointRecord],
    openapi_extra=OPERATOR_KEY,
    summary="Read one program-wide webhook endpoint (secret masked)",
)
async def get_program_endpoint(
    request: Request, _operator: Webhooks, db: Db, endpoint_uuid: EndpointUuid
) -> JSONResponse:
    """One program-wide endpoint (secret masked); a cardholder's endpoint is 404 here."""
    row = await service.own_endpoint(db.reader, PROGRAM_WIDE, uuid.UUID(endpoint_uuid))
    return ok(endpoint_record(row, request.app.state.cipher))


@router.patch(
    ONE,
    response_model=Envelope[ProgramEndpointRecord],
    openapi_extra={**OPERATOR_KEY, **body_schema(ProgramEndpointUpdate)},
    summary="Change a program-wide webhook endpoint",
)
async def update_program_endpoint(
    request: Request, operator: Webhooks, db: Db, endpoint_uuid: EndpointUuid
) -> JSONResponse:
    """Change any of the fields sent (URL, description, event types, enabled) as for a
    cardholder's endpoint; the rest stay as they are. Disabling stops deliveries; the queue
    waits. Audited (the fields sent)."""
    body = await read_json(request, ProgramEndpointUpdate)
    if body.url is not None:
        await check_url(body.url, request.app.state.settings.private_urls_allowed)
    by, cipher, endpoint = (
        acting(request, operator),
        request.app.state.cipher,
        uuid.UUID(endpoint_uuid),
    )

    async def work(tx: Tx) -> dict[str, Any]:
        record = await service.update_endpoint(tx, cipher, PROGRAM_WIDE, endpoint, body, utcnow())
        details = body.model_dump(include=body.model_fields_set)
        await by.record(tx, "webhook_endpoint.updated", "webhook_endpoint", endpoint, details)
        return record

    return ok(await db.transact(work))


@router.post(
    ONE + "/rotate-secret",
    response_model=Envelope[ProgramEndpointRecord],
    openapi_extra=OPERATOR_KEY,
    summary="A new secret (shown in full); the old one keeps signing for 24 h",
)
async def rotate_program_secret(
    request: Request, operator: Webhooks, db: Db, endpoint_uuid: EndpointUuid
) -> JSONResponse:
    """A new signing secret, shown in full once; for 24 h deliveries carry signatures of both
    the old and the new secret. Audited."""
    by, cipher, endpoint = (
        acting(request, operator),
        request.app.state.cipher,
        uuid.UUID(endpoint_uuid),
    )

    async def work(tx: Tx) -> dict[str, Any]:
        record = await service.rotate_secret(tx, cipher, PROGRAM_WIDE, endpoint, utcnow())
        await by.record(tx, "webhook_endpoint.secret_rotated", "webhook_endpoint", endpoint)
        return record

    return ok(await db.transact(work))


@router.delete(
    ONE,
    response_model=Done,
    openapi_extra=OPERATOR_KEY,
    summary="Delete a program-wide webhook endpoint, its queue and its attempt log",
)
async def delete_program_endpoint(
    request: Request, operator: Webhooks, db: Db, endpoint_uuid: EndpointUuid
) -> JSONResponse:
    """Delete the endpoint with its queued deliveries and its attempt log. Audited."""
    by, endpoint = acting(request, operator), uuid.UUID(endpoint_uuid)

    async def work(tx: Tx) -> None:
        await service.delete_endpoint(tx, PROGRAM_WIDE, endpoint)
        await by.record(tx, "webhook_endpoint.deleted", "webhook_endpoint", endpoint)

    await db.transact(work)
    return done()


@router.get(
    ONE + "/deliveries",
    response_model=PagedEnvelope[list[AttemptRecord]],
    openapi_extra=OPERATOR_KEY,
    summary="A program-wide endpoint's delivery attempts, newest first",
)
async def program_deliveries(
    _operator: Webhooks, db: Db, endpoint_uuid: EndpointUuid, page: StandardPage
) -> JSONResponse:
    """The endpoint's delivery attempts, newest first: event, attempt number, HTTP status or
    error, duration and the next attempt's time (scope `webhooks`)."""
    records, total = await service.attempts(
        db.reader, PROGRAM_WIDE, uuid.UUID(endpoint_uuid), page.offset, page.size
    )
    return ok(records, meta=page.meta(total))


@router.post(
    ONE + "/replay",
    status_code=202,
    response_model=Envelope[Queued],
    openapi_extra={**OPERATOR_KEY, **body_schema(ReplayRequest)},
    summary="Queue every event of a window the program-wide endpoint never received with a 2xx",
)
async def replay_program_window(
    request: Request, operator: Webhooks, db: Db, endpoint_uuid: EndpointUuid
) -> JSONResponse:
    """Queue every event of `[since, until)` this endpoint wants — every cardholder's and the
    operator's own — that it never answered with a 2xx and is not waiting for (202 with the
    number queued; scope `webhooks`): what it missed while it was down. Audited."""
    body = await read_json(request, ReplayRequest)
    by, endpoint = acting(request, operator), uuid.UUID(endpoint_uuid)

    async def work(tx: Tx) -> int:
        queued = await replay(tx, PROGRAM_WIDE, endpoint, body.since, body.until, utcnow())
        details = {"since": body.since, "until": body.until, "queued": queued}
        await by.record(tx, "webhook_endpoint.replayed", "webhook_endpoint", endpoint, details)
        return queued

    return ok({"queued": await db.transact(work)}, status_code=202)
