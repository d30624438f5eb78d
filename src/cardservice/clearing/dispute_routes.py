"""The operator's side of disputes through the network (docs/disputes.md): `POST
/operator/clearing-outgoing {date}` (scope `network`) writes the date's outgoing file and
answers its bytes; `GET /operator/clearing-outgoing` lists the files written; `GET
/operator/disputes` (scope `network` or `reports`) lists every dispute; `POST
/operator/disputes/{uuid}/accept` and `/escalate` (scope `network`) decide after a second
presentment."""

from __future__ import annotations

import uuid
from datetime import date
from typing import Annotated, Any, get_args

from fastapi import Depends, Path, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from cardservice.clearing.outgoing import outgoing_files, write_outgoing
from cardservice.db.sql import Tx
from cardservice.disputes import (
    DisputeRecord,
    DisputeStatus,
    accept_dispute,
    dispute_record_of,
    escalate_dispute,
    every_dispute,
)
from cardservice.http.database import Db
from cardservice.http.filters import filters_parameter, one_of, read_filters
from cardservice.http.openapi import Envelope, PagedEnvelope
from cardservice.http.router import JSONResponse, Router, StandardPage, body_schema, ok, read_json
from cardservice.models.base import utcnow
from cardservice.operator import Operator
from cardservice.operator.dependencies import OPERATOR_KEY, acting, operator_with
from cardservice.values.patterns import UUID_PATTERN
from cardservice.values.requests import StrictRequest

router = Router(tags=["operator"])
Network = Annotated[Operator, Depends(operator_with("network"))]
Readers = Annotated[Operator, Depends(operator_with("network", "reports"))]
DisputeUuid = Annotated[
    str,
    Path(alias="disputeUuid", pattern=UUID_PATTERN, description="The dispute's uuid"),
]
OCTETS = "application/octet-stream"
FILTERS = {"status": one_of(*get_args(DisputeStatus)).describe("Only disputes in this status")}


class OutgoingRequest(StrictRequest):
    date: Annotated[date, Field(strict=False)]
    """The UTC day of the file (YYYY-MM-DD), today or before."""


class OutgoingRecord(BaseModel):
    uuid: uuid.UUID
    file_id: str
    date: date
    messages: int
    sha256: str
    created_at: str


@router.post(
    "/operator/clearing-outgoing",
    openapi_extra={**OPERATOR_KEY, **body_schema(OutgoingRequest)},
    responses={200: {"content": {OCTETS: {}}, "description": "The IPM file's bytes"}},
    response_class=Response,
    summary="Write the issuer's outgoing clearing file of a date (chargebacks)",
)
async def post_outgoing(request: Request, operator: Network, db: Db) -> Response:
    """The date's outgoing Mastercard IPM file (scope `network`): a 1442 for each dispute
    waiting to be sent, which moves to `chargeback_sent` (or its pre-arbitration is marked
    sent). Written once: the same date again answers the same bytes and moves nothing. A
    future date is 422."""
    body = await read_json(request, OutgoingRequest)
    written = await write_outgoing(
        db, request.app.state.cipher, body.date, acting(request, operator), utcnow()
    )
    headers = {"X-File-Id": written.record["file_id"], "X-Sha256": written.record["sha256"]}
    return Response(written.content, media_type=OCTETS, headers=headers)


@router.get(
    "/operator/clearing-outgoing",
    response_model=PagedEnvelope[list[OutgoingRecord]],
    openapi_extra=OPERATOR_KEY,
    summary="The outgoing clearing files written, newest date first",
)
async def list_outgoing(_operator: Readers, db: Db, page: StandardPage) -> JSONResponse:
    """The outgoing files written (`file_id`, `date`, `messages`, `sha256`), paged (scope
    `network` or `reports`)."""
    records, total = await outgoing_files(db.reader, page.offset, page.size)
    return ok(records, meta=page.meta(total))


@router.get(
    "/operator/disputes",
    response_model=PagedEnvelope[list[DisputeRecord]],
    openapi_extra={**OPERATOR_KEY, **filters_parameter(FILTERS)},
    summary="Every user's disputes, newest first",
)
async def operator_disputes(
    request: Request, _operator: Readers, db: Db, page: StandardPage
) -> JSONResponse:
    """Every user's disputes, newest first, paged, `filters[status]` (scope `network` or
    `reports`)."""
    filters = read_filters(request, FILTERS)
    records, total = await every_dispute(db.reader, filters, page)
    return ok(records, meta=page.meta(total))


@router.post(
    "/operator/disputes/{disputeUuid:uuid36}/accept",
    response_model=Envelope[DisputeRecord],
    openapi_extra=OPERATOR_KEY,
    summary="Accept a merchant's second presentment: the dispute is lost",
)
async def accept(
    request: Request, operator: Network, db: Db, dispute_uuid: DisputeUuid
) -> JSONResponse:
    """A dispute in `representment_received` becomes `lost` (a provisional credit is taken
    back); another status is 409 `dispute_wrong_status` (scope `network`)."""
    dispute, by = uuid.UUID(dispute_uuid), acting(request, operator)

    async def unit(tx: Tx) -> dict[str, Any]:
        row = await accept_dispute(tx, dispute, utcnow())
        await by.record(tx, "dispute.accept", "dispute", dispute)
        return row

    return ok(dispute_record_of(await db.transact(unit)))


@router.post(
    "/operator/disputes/{disputeUuid:uuid36}/escalate",
    response_model=Envelope[DisputeRecord],
    openapi_extra=OPERATOR_KEY,
    summary="Escalate after a second presentment: pre-arbitration in the next outgoing file",
)
async def escalate(
    request: Request, operator: Network, db: Db, dispute_uuid: DisputeUuid
) -> JSONResponse:
    """A dispute in `representment_received` becomes `pre_arbitration`: a 1442 `451` in the
    next outgoing file; another status is 409 `dispute_wrong_status` (scope `network`)."""
    dispute, by = uuid.UUID(dispute_uuid), acting(request, operator)

    async def unit(tx: Tx) -> dict[str, Any]:
        row = await escalate_dispute(tx, dispute, utcnow())
        await by.record(tx, "dispute.escalate", "dispute", dispute)
        return row

    return ok(dispute_record_of(await db.transact(unit)))
