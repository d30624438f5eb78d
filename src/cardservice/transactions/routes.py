"""Endpoints 3, 6 and 7 of the seed."""

from __future__ import annotations

import asyncio
import hashlib
import re
import uuid
from datetime import date
from typing import Annotated, get_args

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response

from cardservice.auth.dependencies import CallerA
from cardservice.openapi import (
    BEARER_OR_MFA,
    UUID_PATTERN,
    Envelope,
    PagedEnvelope,
    filters_parameter,
)
from cardservice.transactions import reports
from cardservice.transactions.receipt import render_receipt
from cardservice.transactions.schemas import TransactionRecord, TransactionStatus, TransactionType
from cardservice.web import (
    JSONResponse,
    StandardPage,
    client_has,
    ok,
    one_of,
    read_filters,
    uuid_filter,
)

router = APIRouter(tags=["transactions"])

TransactionUuid = Annotated[str, Path(alias="transactionUuid", pattern=UUID_PATTERN)]
DATE_TEXT = re.compile(r"\d{4}-\d{2}-\d{2}")
STATUSES, TYPES = get_args(TransactionStatus), get_args(TransactionType)


def _date(value: str) -> date:
    try:
        if not DATE_TEXT.fullmatch(value):
            raise ValueError
        return date.fromisoformat(value)
    except ValueError:
        raise ValueError("must be a date YYYY-MM-DD") from None


REPORT_FILTERS = {
    "card_uuid": uuid_filter,
    "account_uuid": uuid_filter,
    "status": one_of(*STATUSES),
    "type": one_of(*TYPES),
    "date_from": _date,
    "date_to": _date,
}
DATE = {"type": "string", "format": "date"}


@router.get(
    "/transaction/report",
    response_model=PagedEnvelope[list[TransactionRecord]],
    openapi_extra={
        **BEARER_OR_MFA,
        **filters_parameter(
            {
                "card_uuid": {"type": "string", "format": "uuid"},
                "account_uuid": {"type": "string", "format": "uuid"},
                "status": {"type": "string", "enum": list(STATUSES)},
                "type": {"type": "string", "enum": list(TYPES)},
                "date_from": DATE,
                "date_to": DATE,
            }
        ),
    },
    summary="The caller's transactions, newest first",
)
async def list_transactions(request: Request, caller: CallerA, page: StandardPage) -> JSONResponse:
    filters = read_filters(request, REPORT_FILTERS)
    records, total = await reports.report(
        request.app.state.db.reader, caller.user_uuid, filters, page.offset, page.size
    )
    return ok(records, meta=page.meta(total))


@router.get(
    "/transaction/{transactionUuid:uuid36}",
    response_model=Envelope[TransactionRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="Read one transaction",
)
async def get_transaction(
    request: Request, caller: CallerA, transaction_uuid: TransactionUuid
) -> JSONResponse:
    reader = request.app.state.db.reader
    return ok(await reports.one_transaction(reader, caller.user_uuid, uuid.UUID(transaction_uuid)))


@router.get(
    "/transaction/jpg/{transactionUuid:uuid36}",
    response_class=Response,
    responses={200: {"content": {"image/jpeg": {}}, "description": "The receipt picture"}},
    openapi_extra=BEARER_OR_MFA,
    summary="The receipt picture of a transaction",
)
async def get_receipt(
    request: Request, caller: CallerA, transaction_uuid: TransactionUuid
) -> Response:
    async with request.app.state.db.read() as session:
        view = await reports.receipt_view(session, caller.user_uuid, uuid.UUID(transaction_uuid))
    etag = '"' + hashlib.sha256(repr(view).encode()).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": "private, no-cache"}
    if client_has(request, etag):
        return Response(status_code=304, headers=headers)
    image = await asyncio.to_thread(render_receipt, view)
    return Response(image, media_type="image/jpeg", headers=headers)
