"""`/operator/cards/{uuid}/freeze | unfreeze | replace | fulfilment` (scope `cards`,
docs/operations.md "Acting on cards", docs/cards.md#fulfilment): the holder's use cases, done
by the operator (operator/card_actions.py)."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Depends, Path, Request

from cardservice.cards import CardRecord, FulfilmentRequest, ReplaceCardRequest
from cardservice.http.database import Db
from cardservice.http.openapi import Envelope
from cardservice.http.router import JSONResponse, Router, body_schema, ok, read_json
from cardservice.models.base import utcnow
from cardservice.operator import card_actions
from cardservice.operator.api_keys import Operator
from cardservice.operator.dependencies import OPERATOR_KEY, acting, operator_with
from cardservice.values.patterns import UUID_PATTERN

router = Router(tags=["operator"])
Cards = Annotated[Operator, Depends(operator_with("cards"))]
CardUuid = Annotated[
    str,
    Path(
        alias="cardUuid",
        pattern=UUID_PATTERN,
        description="The card's uuid (`GET /operator/cards`)",
    ),
]


async def _frozen(
    request: Request, operator: Operator, db: Db, card: str, frozen: bool
) -> JSONResponse:
    by, card_uuid, now = acting(request, operator), uuid.UUID(card), utcnow()
    return ok(
        await db.transact(lambda tx: card_actions.set_card_frozen(tx, by, card_uuid, frozen, now))
    )


@router.post(
    "/operator/cards/{cardUuid:uuid36}/freeze",
    response_model=Envelope[CardRecord],
    openapi_extra=OPERATOR_KEY,
    summary="Freeze a cardholder's card (frozen_reason: operator)",
)
async def operator_freeze_card(
    request: Request, operator: Cards, db: Db, card_uuid: CardUuid
) -> JSONResponse:
    """Freeze a card (scope `cards`): it declines `card_frozen`, shows `frozen_reason:
    operator`, and its holder cannot unfreeze it. Audited; the card's `card.updated` event
    goes to its holder as for their own freeze. A closed card → 422 `card_closed`."""
    return await _frozen(request, operator, db, card_uuid, True)


@router.post(
    "/operator/cards/{cardUuid:uuid36}/unfreeze",
    response_model=Envelope[CardRecord],
    openapi_extra=OPERATOR_KEY,
    summary="Unfreeze a card the operator or the card-testing guard froze",
)
async def operator_unfreeze_card(
    request: Request, operator: Cards, db: Db, card_uuid: CardUuid
) -> JSONResponse:
    """Make a card active again (scope `cards`): one the operator froze, or the card-testing
    guard (`suspected_fraud`). A card its holder froze → 422 `frozen_by_holder`; one the
    team's receipt policy froze → 422 `receipt_missing`; a closed card → 422 `card_closed`."""
    return await _frozen(request, operator, db, card_uuid, False)


@router.post(
    "/operator/cards/{cardUuid:uuid36}/replace",
    status_code=201,
    response_model=Envelope[CardRecord],
    openapi_extra={**OPERATOR_KEY, **body_schema(ReplaceCardRequest)},
    summary="Replace a cardholder's card: a new number, the same settings and balance",
)
async def operator_replace_card(
    request: Request, operator: Cards, db: Db, card_uuid: CardUuid
) -> JSONResponse:
    """The holder's replacement (`POST /card/{cardUuid}/replace`), done by the operator (scope
    `cards`): the old card closed with the reason, a new number on the same BIN and account
    with its settings, the balance moved in one `card_transfer` entry. Answers 201 with the
    new card (its `replaces` names the old one). Audited."""
    body = await read_json(request, ReplaceCardRequest)
    by, card, now, cipher = (
        acting(request, operator),
        uuid.UUID(card_uuid),
        utcnow(),
        request.app.state.cipher,
    )
    record = await db.transact(
        lambda tx: card_actions.replace_holders_card(tx, cipher, by, card, body.reason, now)
    )
    return ok(record, status_code=201)


@router.post(
    "/operator/cards/{cardUuid:uuid36}/fulfilment",
    response_model=Envelope[CardRecord],
    openapi_extra={**OPERATOR_KEY, **body_schema(FulfilmentRequest)},
    summary="The card producer's feed: a physical card's next fulfilment step",
)
async def operator_card_fulfilment(
    request: Request, operator: Cards, db: Db, card_uuid: CardUuid
) -> JSONResponse:
    """Move a physical card to its next fulfilment step (scope `cards`): `ordered → printed →
    shipped → delivered`, or `returned` from `shipped`, with the carrier and tracking number
    when known. A step out of order → 409 `fulfilment_out_of_order`; a virtual card → 422
    `card_not_physical`. Each step is a `card.updated` event to the holder; audited."""
    body = await read_json(request, FulfilmentRequest)
    by, card, now = acting(request, operator), uuid.UUID(card_uuid), utcnow()
    return ok(await db.transact(lambda tx: card_actions.move_fulfilment(tx, by, card, body, now)))
