"""`POST /network/3ds-codes` (docs/operations.md#running-a-program, `network` scope)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from cardservice.http.database import Db
from cardservice.http.openapi import Envelope
from cardservice.http.router import JSONResponse, Router, body_schema, ok, read_json
from cardservice.models.base import utcnow
from cardservice.operator.acs import AcsCodeRequest, record_acs_code
from cardservice.operator.api_keys import Operator
from cardservice.operator.dependencies import OPERATOR_KEY, acting, operator_with
from cardservice.transactions import ThreeDsRecord

router = Router(tags=["operator"])
Network = Annotated[Operator, Depends(operator_with("network"))]


@router.post(
    "/network/3ds-codes",
    status_code=201,
    response_model=Envelope[ThreeDsRecord],
    openapi_extra={**OPERATOR_KEY, **body_schema(AcsCodeRequest)},
    summary="A 3DS code sent by the issuer's ACS for a card, named by its number",
)
async def create_acs_code(request: Request, operator: Network, db: Db) -> JSONResponse:
    """A 3DS one-time code the ACS sent for a card, named by its full number (scope `network`).
    Answers 201 with the 3DS code record (the number is never echoed); unknown number → 404."""
    body = await read_json(request, AcsCodeRequest)
    cipher, by, now = request.app.state.cipher, acting(request, operator), utcnow()
    return ok(
        await db.transact(lambda tx: record_acs_code(tx, cipher, by, body, now)), status_code=201
    )
