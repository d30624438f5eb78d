"""Endpoints 10, 12–17, 19 of the seed and `GET /dictionary/bins`."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request
from fastapi.responses import Response

from cardservice.auth.dependencies import CallerA
from cardservice.db import Db
from cardservice.dictionaries import service
from cardservice.dictionaries.fees import fee_schedule
from cardservice.dictionaries.schemas import (
    BinRecord,
    BlockedTagRecord,
    DictionaryRecord,
    FeeRecord,
    FxRateRecord,
    TagRecord,
)
from cardservice.ledger.money import from_minor
from cardservice.openapi import BEARER_OR_MFA, PUBLIC, Envelope
from cardservice.web import JSONResponse, QueryText, Router, cacheable, ok

router = Router(prefix="/dictionary", tags=["dictionaries"])

POPULAR_MAX_AGE = 60


def _simple(path: str, kind: str, summary: str) -> None:
    async def endpoint(request: Request, db: Db) -> Response:
        return cacheable(request, await service.dictionary(db.reader, kind))

    endpoint.__name__ = "list_" + path.strip("/").replace("-", "_")
    router.add_api_route(
        path,
        endpoint,
        methods=["GET"],
        response_model=Envelope[list[DictionaryRecord]],
        openapi_extra=PUBLIC,
        summary=summary,
    )


_simple("/transaction-statuses", "transaction_status", "Transaction statuses")
_simple("/transaction-errors", "transaction_error", "Transaction errors")
_simple("/account-statuses", "account_status", "Account statuses")
_simple("/account-types", "account_type", "Account types")


@router.get(
    "/fx-rates",
    response_model=Envelope[list[FxRateRecord]],
    openapi_extra=PUBLIC,
    summary="Currency conversion rates for foreign-currency authorizations",
)
async def list_fx_rates(request: Request, db: Db) -> Response:
    return cacheable(request, await service.fx_rates(db.reader))


@router.get(
    "/transaction-tags",
    response_model=Envelope[list[TagRecord]],
    openapi_extra=PUBLIC,
    summary="The 30 most popular transaction tags",
)
async def list_popular_tags(request: Request, db: Db) -> Response:
    return cacheable(request, await service.popular_tags(db.reader), max_age=POPULAR_MAX_AGE)


@router.get(
    "/transaction-tags/search",
    response_model=Envelope[list[TagRecord]],
    openapi_extra=PUBLIC,
    summary="Search transaction tags by name",
)
async def search_tags(
    request: Request,
    db: Db,
    search: Annotated[QueryText, Query(min_length=1, max_length=64, description="Part of a name")],
) -> Response:
    return cacheable(request, await service.search_tags(db.reader, search), max_age=POPULAR_MAX_AGE)


@router.get(
    "/transaction-tags/blocked",
    response_model=Envelope[list[BlockedTagRecord]],
    openapi_extra=PUBLIC,
    summary="Blocked and restricted transaction tags",
)
async def list_blocked_tags(request: Request, db: Db) -> Response:
    return cacheable(request, await service.blocked_tags(db.reader))


@router.get(
    "/fees",
    response_model=Envelope[list[FeeRecord]],
    openapi_extra=BEARER_OR_MFA,
    summary="The caller's fee schedule",
)
async def list_fees(caller: CallerA, db: Db) -> JSONResponse:
    schedule = await fee_schedule(db.reader, caller.user_uuid)
    return ok(
        [
            FeeRecord(
                slug=f.slug, name=f.name, kind=f.kind, amount=from_minor(f.value), currency=None
            )
            for f in schedule.fees.values()
        ]
    )


@router.get(
    "/bins",
    response_model=Envelope[list[BinRecord]],
    openapi_extra=BEARER_OR_MFA,
    summary="Card BINs the service issues from",
)
async def list_bins(caller: CallerA, db: Db) -> JSONResponse:
    return ok(await service.bins(db.reader))
