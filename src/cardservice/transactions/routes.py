"""Endpoints 3, 6 and 7 of the seed."""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from typing import Annotated, get_args

from fastapi import Path, Query, Request
from fastapi.responses import Response, StreamingResponse

from cardservice.auth.dependencies import CallerA
from cardservice.errors import ValidationFailed
from cardservice.http.database import Db
from cardservice.http.filters import DATE, UUID, filters_parameter, one_of, read_filters, text
from cardservice.http.openapi import BEARER_OR_MFA, Envelope
from cardservice.http.router import (
    JSONResponse,
    Router,
    StandardPage,
    client_has,
    csv_response,
    ok,
)
from cardservice.transactions import reports
from cardservice.transactions.export import csv_chunks
from cardservice.transactions.receipt import render_receipt
from cardservice.transactions.schemas import (
    ReportPage,
    TransactionRecord,
    TransactionStatus,
    TransactionType,
)
from cardservice.values.patterns import UUID_PATTERN

router = Router(tags=["transactions"])

TransactionUuid = Annotated[
    str,
    Path(
        alias="transactionUuid",
        pattern=UUID_PATTERN,
        description="The transaction's uuid (`GET /transaction/report`)",
    ),
]
STATUSES, TYPES = get_args(TransactionStatus), get_args(TransactionType)
REPORT_FILTERS = {
    "card_uuid": UUID.describe("Only this card's transactions"),
    "account_uuid": UUID.describe("Only transactions of this account"),
    "status": one_of(*STATUSES).describe("Only transactions in this status"),
    "type": one_of(*TYPES).describe("Only transactions of this type"),
    "date_from": DATE.describe("Created on or after this UTC day, `YYYY-MM-DD`"),
    "date_to": DATE.describe("Created on or before this UTC day, `YYYY-MM-DD` (inclusive)"),
    "search": text(64).describe(
        "Part of the merchant's name or of the transaction's description, any case"
    ),
}


@router.get(
    "/transaction/report",
    response_model=ReportPage,
    openapi_extra={**BEARER_OR_MFA, **filters_parameter(REPORT_FILTERS)},
    summary="The caller's transactions, newest first",
)
async def list_transactions(
    request: Request,
    caller: CallerA,
    db: Db,
    page: StandardPage,
    starting_after: Annotated[
        str | None,  # its UUID pattern refuses U+0000 already
        Query(
            pattern=UUID_PATTERN,
            description="Keyset page: the transactions after this one (leave `page` out)",
        ),
    ] = None,
) -> JSONResponse:
    """The caller's transactions, newest first (ties by uuid). Two ways to page:
    `page`/`per_page` (`meta.total`, `meta.last_page`), or keyset with `starting_after` = the
    last uuid of the previous page (`meta.next_starting_after`, null on the last page), whose
    cost does not grow with depth. Filters narrow both; with a filter, `meta.totals` sums what
    the matching transactions moved per currency (`[{currency, debits, credits}]`, fees with
    the debits; null without a filter)."""
    filters = read_filters(request, REPORT_FILTERS)
    if starting_after is not None:
        if "page" in request.query_params:
            raise ValidationFailed(errors={"page": ["leave page out with starting_after"]})
        records, total, following = await reports.report_after(
            db.reader, caller.user_uuid, filters, uuid.UUID(starting_after), page.size
        )
        meta = {"per_page": page.size, "total": total, "next_starting_after": following}
        totals = await reports.report_totals(db.reader, caller.user_uuid, filters)
        return ok(records, meta={**meta, "totals": totals})
    records, total = await reports.report(
        db.reader, caller.user_uuid, filters, page.offset, page.size
    )
    more = records and page.offset + len(records) < total
    totals = await reports.report_totals(db.reader, caller.user_uuid, filters)
    return ok(
        records,
        meta={
            **page.meta(total),
            "next_starting_after": records[-1]["uuid"] if more else None,
            "totals": totals,
        },
    )


@router.get(
    "/transaction/report.csv",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/csv": {}}, "description": "RFC 4180 CSV, header first"}},
    openapi_extra={**BEARER_OR_MFA, **filters_parameter(REPORT_FILTERS)},
    summary="Every matching transaction as CSV (streamed)",
)
async def export_transactions_csv(request: Request, caller: CallerA, db: Db) -> StreamingResponse:
    """Every transaction matching the filters as RFC 4180 CSV with a header row, newest first,
    streamed (memory stays flat at a million rows), amounts as plain decimals,
    `Content-Disposition: attachment`. A cell a spreadsheet would run as a formula (`=`, `+`,
    `-`, `@` …) is prefixed with `'` so it reads as text."""
    filters = read_filters(request, REPORT_FILTERS)
    return csv_response(csv_chunks(db.reader, caller.user_uuid, filters), "transactions.csv")


@router.get(
    "/transaction/{transactionUuid:uuid36}",
    response_model=Envelope[TransactionRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="Read one transaction",
)
async def get_transaction(
    caller: CallerA, db: Db, transaction_uuid: TransactionUuid
) -> JSONResponse:
    """One of the caller's transactions: type, status, amount and fee, merchant, decline
    `error`, network data (`channel`, STAN, RRN, terminal, merchant id) and captures, refunds
    and foreign-currency details where they apply."""
    return ok(
        await reports.one_transaction(db.reader, caller.user_uuid, uuid.UUID(transaction_uuid))
    )


@router.get(
    "/transaction/jpg/{transactionUuid:uuid36}",
    response_class=Response,
    responses={200: {"content": {"image/jpeg": {}}, "description": "The receipt picture"}},
    openapi_extra=BEARER_OR_MFA,
    summary="The receipt picture of a transaction",
)
async def get_receipt(
    request: Request, caller: CallerA, db: Db, transaction_uuid: TransactionUuid
) -> Response:
    """A JPEG receipt of the transaction (merchant, amount and currency, date, card mask,
    status, uuid), with an `ETag`. Unknown or foreign → the 404 error body."""
    view = await reports.receipt_view(db.reader, caller.user_uuid, uuid.UUID(transaction_uuid))
    etag = '"' + hashlib.sha256(repr(view).encode()).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": "private, no-cache"}
    if client_has(request, etag):
        return Response(status_code=304, headers=headers)
    image = await asyncio.to_thread(render_receipt, view)
    return Response(image, media_type="image/jpeg", headers=headers)
