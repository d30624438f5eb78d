"""`POST /card/{cardUuid}/replace` (API.md §15)."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Path, Request

from cardservice.auth.dependencies import CallerA
from cardservice.cards.replacement import replace_card
from cardservice.cards.schemas import CardRecord, ReplaceCardRequest
from cardservice.db import Db
from cardservice.models.base import utcnow
from cardservice.openapi import BEARER_OR_MFA, UUID_PATTERN, Envelope
from cardservice.web import JSONResponse, Router, body_schema, ok, read_json

router = Router(tags=["cards"])


@router.post(
    "/card/{cardUuid:uuid36}/replace",
    status_code=201,
    response_model=Envelope[CardRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(ReplaceCardRequest)},
    summary="Replace a card: a new number, the same settings and balance",
)
async def replace(
    request: Request,
    caller: CallerA,
    db: Db,
    card_uuid: Annotated[str, Path(alias="cardUuid", pattern=UUID_PATTERN)],
) -> JSONResponse:
    body = await read_json(request, ReplaceCardRequest)
    cipher, card, now = request.app.state.cipher, uuid.UUID(card_uuid), utcnow()
    record = await db.transact(
        lambda tx: replace_card(tx, cipher, caller.user_uuid, card, body.reason, now)
    )
    return ok(record, status_code=201)
