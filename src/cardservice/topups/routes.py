"""`/topups` (cardholder, A) and the operator's confirm and cancel
(docs/operations.md#running-a-program)."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Depends, Path, Request

from cardservice.auth.dependencies import CallerA
from cardservice.http.database import Db
from cardservice.http.openapi import BEARER_OR_MFA, Envelope, PagedEnvelope
from cardservice.http.router import JSONResponse, Router, StandardPage, body_schema, ok, read_json
from cardservice.ledger.minor_units import to_minor
from cardservice.models.base import utcnow
from cardservice.operator import Operator
from cardservice.operator.dependencies import OPERATOR_KEY, acting, operator_with
from cardservice.topups import service
from cardservice.topups.schemas import ConfirmTopupRequest, TopupRecord, TopupRequest
from cardservice.values.patterns import UUID_PATTERN

router = Router(tags=["topups"])
operator_router = Router(tags=["operator"])
TopupUuid = Annotated[
    str,
    Path(
        alias="topupUuid",
        pattern=UUID_PATTERN,
        description="The top-up's uuid (the `uuid` `POST /topups` answered)",
    ),
]
Funding = Annotated[Operator, Depends(operator_with("funding"))]


@router.post(
    "/topups",
    status_code=201,
    response_model=Envelope[TopupRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(TopupRequest)},
    summary="Ask to fund an account by a payment method",
)
async def create_topup(request: Request, caller: CallerA, db: Db) -> JSONResponse:
    """Ask to fund an account by a payment method: answers 201 with a `reference` to quote with
    the payment, the fee, the amount that will be credited and when the request expires (72 h).
    The method and currency come from `GET /payment/currencies/{slug}`, within its minimum and
    maximum; a currency other than the account's is converted at the rate table."""
    body = await read_json(request, TopupRequest)
    now = utcnow()
    record = await db.transact(lambda tx: service.request_topup(tx, caller.user_uuid, body, now))
    return ok(service.with_pay_to(record, _pay_to(request)), status_code=201)


@router.get(
    "/topups",
    response_model=PagedEnvelope[list[TopupRecord]],
    openapi_extra=BEARER_OR_MFA,
    summary="The caller's top-ups, newest first",
)
async def list_topups(
    request: Request, caller: CallerA, db: Db, page: StandardPage
) -> JSONResponse:
    """The caller's top-ups, newest first, paginated."""
    topups, total = await service.list_topups(db.reader, caller.user_uuid, page)
    pay_to = _pay_to(request)
    return ok([service.with_pay_to(t, pay_to) for t in topups], meta=page.meta(total))


@router.get(
    "/topups/{topupUuid:uuid36}",
    response_model=Envelope[TopupRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="Read one of the caller's top-ups",
)
async def get_topup(
    request: Request, caller: CallerA, db: Db, topup_uuid: TopupUuid
) -> JSONResponse:
    """One of the caller's top-ups: status (`awaiting_payment`, `completed`, `cancelled`,
    `expired`), amount, fee, reference and where to pay (`pay_to`)."""
    record = await service.get_topup(db.reader, uuid.UUID(topup_uuid), caller.user_uuid)
    return ok(service.with_pay_to(record, _pay_to(request)))


def _pay_to(request: Request) -> dict[str, dict[str, str]]:
    return dict(request.app.state.settings.topup_pay_to)


@operator_router.post(
    "/operator/topups/{topupUuid:uuid36}/confirm",
    response_model=Envelope[TopupRecord],
    openapi_extra={**OPERATOR_KEY, **body_schema(ConfirmTopupRequest)},
    summary="Confirm what arrived for a top-up: the account is credited, once",
)
async def confirm_topup(
    request: Request, operator: Funding, db: Db, topup_uuid: TopupUuid
) -> JSONResponse:
    """What arrived for a top-up (scope `funding`): the account is credited (a `deposit` linked
    to the top-up) and the top-up becomes `completed`. A second confirm → 409."""
    body = await read_json(request, ConfirmTopupRequest)
    topup, received, now = uuid.UUID(topup_uuid), to_minor(body.received_amount), utcnow()
    by = acting(request, operator)
    return ok(await db.transact(lambda tx: service.confirm_topup(tx, by, topup, received, now)))


@operator_router.post(
    "/operator/topups/{topupUuid:uuid36}/cancel",
    response_model=Envelope[TopupRecord],
    openapi_extra=OPERATOR_KEY,
    summary="Cancel an unpaid top-up",
)
async def cancel_topup(
    request: Request, operator: Funding, db: Db, topup_uuid: TopupUuid
) -> JSONResponse:
    """Cancel a top-up still awaiting payment (scope `funding`)."""
    topup, now, by = uuid.UUID(topup_uuid), utcnow(), acting(request, operator)
    return ok(await db.transact(lambda tx: service.cancel_topup(tx, by, topup, now)))
