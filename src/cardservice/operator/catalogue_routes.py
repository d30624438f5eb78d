"""`/operator/bins`, `/operator/programs/{uuid}/fees`, `/operator/fx-rates`
(docs/operations.md#your-own-catalogue): the operator's catalogue, scope `catalogue` (the
reads also `reports`), through catalogue/service.py. Every write is audited."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Depends, Path, Request

from cardservice.catalogue import (
    AddFxRateRequest,
    ChangeBinRequest,
    CreateBinRequest,
    FxRateEntry,
    ProgramFeesRecord,
    ProgramFeesRequest,
    service,
)
from cardservice.db.sql import INTEGRITY_ERRORS
from cardservice.dictionaries import BinRecord
from cardservice.http.database import Db
from cardservice.http.filters import filters_parameter, matching, read_filters
from cardservice.http.openapi import Envelope, PagedEnvelope
from cardservice.http.router import JSONResponse, Router, StandardPage, body_schema, ok, read_json
from cardservice.models.base import utcnow
from cardservice.operator.api_keys import Operator
from cardservice.operator.dependencies import OPERATOR_KEY, acting, operator_with
from cardservice.values.patterns import UUID_PATTERN

router = Router(tags=["operator"])
Catalogue = Annotated[Operator, Depends(operator_with("catalogue"))]
Readers = Annotated[Operator, Depends(operator_with("catalogue", "reports"))]
BinUuid = Annotated[
    str,
    Path(alias="binUuid", pattern=UUID_PATTERN, description="The BIN's uuid (`/dictionary/bins`)"),
]
ProgramUuid = Annotated[
    str,
    Path(alias="programUuid", pattern=UUID_PATTERN, description="The program's uuid"),
]
CURRENCY = matching("[A-Z]{3}", "must be an ISO 4217 code, upper case")
RATE_FILTERS = {
    "base": CURRENCY.describe("Only rates from this currency"),
    "quote": CURRENCY.describe("Only rates to this currency"),
}


@router.post(
    "/operator/bins",
    status_code=201,
    response_model=Envelope[BinRecord],
    openapi_extra={**OPERATOR_KEY, **body_schema(CreateBinRequest)},
    summary="Add a BIN to issue cards from",
)
async def create_bin(request: Request, operator: Catalogue, db: Db) -> JSONResponse:
    """A new card range (scope `catalogue`): listed at `/dictionary/bins` at once, to be put in
    programs and bought on. Digits in use, or overlapping a BIN's → 409 `bin_taken`. Audited."""
    body = await read_json(request, CreateBinRequest)
    by = acting(request, operator)
    try:
        record = await db.transact(lambda tx: service.create_bin(tx, by, body))
    except INTEGRITY_ERRORS:  # the same digits, added by a concurrent request
        raise service.BinTaken() from None
    return ok(record, status_code=201)


@router.patch(
    "/operator/bins/{binUuid:uuid36}",
    response_model=Envelope[BinRecord],
    openapi_extra={**OPERATOR_KEY, **body_schema(ChangeBinRequest)},
    summary="Change a BIN's status or card price",
)
async def patch_bin(
    request: Request, operator: Catalogue, db: Db, bin_uuid: BinUuid
) -> JSONResponse:
    """Stop or resume sales on a BIN, or change the price of the cards bought on it from now
    on (scope `catalogue`; the shipped BINs too). Audited."""
    body = await read_json(request, ChangeBinRequest)
    by, target = acting(request, operator), uuid.UUID(bin_uuid)
    return ok(await db.transact(lambda tx: service.change_bin(tx, by, target, body)))


@router.put(
    "/operator/programs/{programUuid:uuid36}/fees",
    response_model=Envelope[ProgramFeesRecord],
    openapi_extra={**OPERATOR_KEY, **body_schema(ProgramFeesRequest)},
    summary="Set a program's fees over the fee schedule",
)
async def put_program_fees(
    request: Request, operator: Catalogue, db: Db, program_uuid: ProgramUuid
) -> JSONResponse:
    """The fees the program's cardholders pay instead of the schedule's (scope `catalogue`),
    replaced as a whole: amounts as the schedule's (fixed in the card's or account's
    currency, percents as `1.25`). Their `/dictionary/fees` shows them; their next purchases
    and authorizations are charged them. A cardholder's own override still comes first.
    Audited."""
    body = await read_json(request, ProgramFeesRequest)
    by, program, now = acting(request, operator), uuid.UUID(program_uuid), utcnow()
    return ok(await db.transact(lambda tx: service.set_program_fees(tx, by, program, body, now)))


@router.get(
    "/operator/programs/{programUuid:uuid36}/fees",
    response_model=Envelope[ProgramFeesRecord],
    openapi_extra=OPERATOR_KEY,
    summary="Read a program's fees",
)
async def get_program_fees(_operator: Readers, db: Db, program_uuid: ProgramUuid) -> JSONResponse:
    """The program's fee fields (`null`: the schedule's) and the schedule its cardholders pay
    (scope `catalogue` or `reports`)."""
    return ok(await service.get_program_fees(db.reader, uuid.UUID(program_uuid)))


@router.post(
    "/operator/fx-rates",
    status_code=201,
    response_model=Envelope[FxRateEntry],
    openapi_extra={**OPERATOR_KEY, **body_schema(AddFxRateRequest)},
    summary="Set an FX rate from an instant on",
)
async def add_fx_rate(request: Request, operator: Catalogue, db: Db) -> JSONResponse:
    """1 `base` = `rate` `quote` from `effective_at` until the pair's next rate (scope
    `catalogue`): an authorization converts at the rate in force at its time;
    `/dictionary/fx-rates` shows the current ones. A rate is never changed: set a new one. An
    `effective_at` at or before the pair's last authorization → 409
    `rate_predates_authorization`. Audited."""
    body = await read_json(request, AddFxRateRequest)
    by, now = acting(request, operator), utcnow()
    return ok(await db.transact(lambda tx: service.add_fx_rate(tx, by, body, now)), status_code=201)


@router.get(
    "/operator/fx-rates",
    response_model=PagedEnvelope[list[FxRateEntry]],
    openapi_extra={**OPERATOR_KEY, **filters_parameter(RATE_FILTERS)},
    summary="The FX rates the operator set, latest first",
)
async def list_operator_fx_rates(
    request: Request, _operator: Readers, db: Db, page: StandardPage
) -> JSONResponse:
    """Every rate set with `POST /operator/fx-rates`, the latest `effective_at` first, paged
    (scope `catalogue` or `reports`; `filters[base]`, `filters[quote]`). The catalogue's own
    rates (in force until a pair's first) are at `/dictionary/fx-rates`."""
    filters = read_filters(request, RATE_FILTERS)
    rates, total = await service.list_fx_rates(db.reader, filters, page)
    return ok(rates, meta=page.meta(total))
