"""Endpoints 1, 4, 11, 21, 22 of the seed."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response

from cardservice.auth.dependencies import CallerA
from cardservice.cards import listing, purchase, service
from cardservice.cards.schemas import (
    BuyCardsRequest,
    BuyCardsResult,
    CardList,
    CardRecord,
    FavoriteRequest,
    SortRequest,
)
from cardservice.openapi import (
    BEARER_OR_MFA,
    UUID_PATTERN,
    Done,
    Envelope,
    PagedEnvelope,
    filters_parameter,
)
from cardservice.sql import INTEGRITY_ERRORS
from cardservice.web import (
    CardPage,
    JSONResponse,
    body_schema,
    bool_filter,
    done,
    ok,
    one_of,
    read_filters,
    read_json,
    text_filter,
    uuid_filter,
)

router = APIRouter(tags=["cards"])

CARD_FILTERS = {
    "status": one_of("active", "frozen", "closed"),
    "account_uuid": uuid_filter,
    "is_favorite": bool_filter,
    "search": text_filter(64),
}


@router.post(
    "/card/buy",
    status_code=201,
    response_model=Envelope[BuyCardsResult],
    openapi_extra={**BEARER_OR_MFA, **body_schema(BuyCardsRequest)},
    summary="Buy cards for an account",
)
async def buy_cards(request: Request, caller: CallerA) -> Response:
    body = await read_json(request, BuyCardsRequest)
    db, cipher = request.app.state.db, request.app.state.cipher
    try:
        async with db.transaction() as tx:
            result = await purchase.buy_cards(tx, cipher, caller.user_uuid, body)
    except INTEGRITY_ERRORS:
        # A concurrent request with the same external_id committed first: answer as it did.
        async with db.read() as session:
            replayed = await purchase.replay(session, caller.user_uuid, body)
        if replayed is None:
            raise
        result = replayed
    headers = {"Idempotent-Replayed": "true"} if result.replayed else None
    return Response(
        result.body, status_code=result.status_code, headers=headers, media_type="application/json"
    )


@router.get(
    "/card",
    response_model=PagedEnvelope[CardList],
    openapi_extra={
        **BEARER_OR_MFA,
        **filters_parameter(
            {
                "status": {"type": "string", "enum": ["active", "frozen", "closed"]},
                "account_uuid": {"type": "string", "format": "uuid"},
                "is_favorite": {"type": "boolean"},
                "search": {"type": "string", "minLength": 1, "maxLength": 64},
            }
        ),
    },
    summary="List the caller's cards in their order",
)
async def list_cards(request: Request, caller: CallerA, page: CardPage) -> JSONResponse:
    filters = read_filters(request, CARD_FILTERS)
    reader = request.app.state.db.reader
    cards, total = await listing.list_cards(reader, caller.user_uuid, filters, page)
    return ok({"cards": cards}, meta=page.meta(total))


@router.get(
    "/card/{cardUuid:uuid36}",
    response_model=Envelope[CardRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="Read one card",
)
async def get_card(
    request: Request,
    caller: CallerA,
    card_uuid: Annotated[str, Path(alias="cardUuid", pattern=UUID_PATTERN)],
) -> JSONResponse:
    async with request.app.state.db.read() as session:
        return ok(await service.get_card(session, caller.user_uuid, uuid.UUID(card_uuid)))


@router.post(
    "/card/favorite",
    response_model=Done,
    openapi_extra={**BEARER_OR_MFA, **body_schema(FavoriteRequest)},
    summary="Mark or unmark cards as favorite",
)
async def favorite_cards(request: Request, caller: CallerA) -> JSONResponse:
    body = await read_json(request, FavoriteRequest)
    uuids = [uuid.UUID(value) for value in body.card_uuids]
    async with request.app.state.db.write() as session:
        await service.set_favorite(session, caller.user_uuid, uuids, body.is_favorite)
    return done()


@router.post(
    "/card/sort",
    response_model=Done,
    openapi_extra={**BEARER_OR_MFA, **body_schema(SortRequest)},
    summary="Put cards first, in this order",
)
async def sort_cards(request: Request, caller: CallerA) -> JSONResponse:
    body = await read_json(request, SortRequest)
    uuids = [uuid.UUID(value) for value in body.card_uuids]
    async with request.app.state.db.write() as session:
        await service.sort_cards(session, caller.user_uuid, uuids)
    return done()
