"""Endpoints 10, 12–17, 19 of the seed and `GET /dictionary/bins`."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request
from fastapi.responses import Response

from cardservice.auth.dependencies import CallerA
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
from cardservice.http.database import Db
from cardservice.http.openapi import BEARER_OR_MFA, PUBLIC, Envelope
from cardservice.http.router import JSONResponse, QueryText, Router, cacheable, ok
from cardservice.ledger.minor_units import from_minor
from cardservice.models.base import utcnow

router = Router(prefix="/dictionary", tags=["dictionaries"])

POPULAR_MAX_AGE = 60


def _simple(path: str, kind: str, summary: str, description: str) -> None:
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
        description=description,
    )


_simple(
    "/transaction-statuses",
    "transaction_status",
    "Transaction statuses",
    "What a transaction's `status` can be (`pending`, `completed`, `declined`, `reversed`, "
    "`refunded`), each with its name and description. Public, cacheable (`ETag`, "
    "`If-None-Match` → 304).",
)
_simple(
    "/transaction-errors",
    "transaction_error",
    "Transaction errors",
    "Why an authorization can be declined: each `error` slug with what happened and what the "
    "cardholder can do. Use one as `force_decline` in a sandbox authorization. Public, "
    "cacheable.",
)
_simple(
    "/account-statuses",
    "account_status",
    "Account statuses",
    "What an account's `status` can be (`active`, `frozen`, `closed`). Public, cacheable.",
)
_simple(
    "/account-types",
    "account_type",
    "Account types",
    "What an account's `type` can be (`main`, `budget`, `team`, …). Public, cacheable.",
)


@router.get(
    "/fx-rates",
    response_model=Envelope[list[FxRateRecord]],
    openapi_extra=PUBLIC,
    summary="Currency conversion rates for foreign-currency authorizations",
)
async def list_fx_rates(request: Request, db: Db) -> Response:
    """The rates in force now, used when a card is authorized in another currency than its
    own: each pair's `base`, `quote`, `rate` and when it took effect (`effective_at`, and its
    `date`). The operator sets new ones (`POST /operator/fx-rates`); an authorization converts
    at the rate in force at its time. A currency missing here declines
    `currency_not_supported`. Public, cacheable for 60 s (`ETag`, `If-None-Match` → 304)."""
    rates = await service.fx_rates(db.reader, utcnow())
    return cacheable(request, rates, max_age=POPULAR_MAX_AGE)


@router.get(
    "/transaction-tags",
    response_model=Envelope[list[TagRecord]],
    openapi_extra=PUBLIC,
    summary="The 30 most popular transaction tags",
)
async def list_popular_tags(request: Request, db: Db) -> Response:
    """Exactly the 30 transaction tags carried by the most transactions (ties by name), each
    with its category, `transactions_count` and `hold_days` (how long an uncaptured hold of
    that category stays before the service reverses it). Public, cacheable for 60 s."""
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
    """Tags whose name contains `search` (case-insensitive), best match first, at most 50. Use
    a tag's `slug` as `tag` in an authorization or in `allowed_tags`/`blocked_tags`. Public,
    cacheable."""
    return cacheable(request, await service.search_tags(db.reader, search), max_age=POPULAR_MAX_AGE)


@router.get(
    "/transaction-tags/blocked",
    response_model=Envelope[list[BlockedTagRecord]],
    openapi_extra=PUBLIC,
    summary="Blocked and restricted transaction tags",
)
async def list_blocked_tags(request: Request, db: Db) -> Response:
    """Tags an authorization is refused for (`restriction: blocked`, declined
    `merchant_blocked`) or restricted, each with the reason. Public, cacheable."""
    return cacheable(request, await service.blocked_tags(db.reader))


@router.get(
    "/fees",
    response_model=Envelope[list[FeeRecord]],
    openapi_extra=BEARER_OR_MFA,
    summary="The caller's fee schedule",
)
async def list_fees(caller: CallerA, db: Db) -> JSONResponse:
    """The fees charged to the caller: `card_issue` (per card bought; a BIN with a
    `card_price` charges that instead), `card_topup` (a percent of the start balance),
    `card_transaction` (per approved authorization), `card_decline` (per decline), `card_fx`
    (percent of a foreign-currency amount), each `fixed` (in the currency of the account or
    card it is taken from; `currency: null`) or `percent`. What applies to the caller: the
    default schedule, their program's fees over it (`PUT /operator/programs/{uuid}/fees`),
    their own overrides over both."""
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
    """The card ranges cards can be bought from: `uuid` (the `bin_uuid` of `POST /card/buy`),
    the 6–8 digit BIN, brand, currency, whether it is `available`, and its `card_price` (null:
    the fee schedule's `card_issue`). A user in a program may buy only its BINs. The
    operator adds BINs (`POST /operator/bins`)."""
    return ok(await service.bins(db.reader))
