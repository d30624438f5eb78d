"""`GET /account/{uuid}/statements/{YYYY-MM}` (JSON) and `….pdf` (API.md §16)."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Path, Response

from cardservice.auth.dependencies import CallerA
from cardservice.db import Db
from cardservice.openapi import BEARER_OR_MFA
from cardservice.patterns import UUID_PATTERN
from cardservice.statements import pdf, service
from cardservice.web import JSONResponse, Router, ok

router = Router(tags=["accounts"])
AccountUuid = Annotated[str, Path(alias="userAccountUuid", pattern=UUID_PATTERN)]
# YYYY-MM, checked by the service: a month that fails it is no statement (404, API.md §1.1)
Month = Annotated[str, Path(description="a UTC month, YYYY-MM")]


@router.get(
    "/account/{userAccountUuid:uuid36}/statements/{month}.pdf",
    openapi_extra=BEARER_OR_MFA,
    response_class=Response,
    responses={200: {"content": {"application/pdf": {}}}},
    summary="An account's statement for a UTC month, as a printable PDF",
)
async def statement_pdf(
    caller: CallerA, db: Db, account_uuid: AccountUuid, month: Month
) -> Response:
    found = await service.statement(db.reader, caller, uuid.UUID(account_uuid), month)
    return Response(
        pdf.render(found),
        media_type="application/pdf",
        headers={"Content-Disposition": f'inline; filename="statement-{month}.pdf"'},
    )


@router.get(
    "/account/{userAccountUuid:uuid36}/statements/{month}",
    openapi_extra=BEARER_OR_MFA,
    summary="An account's statement for a UTC month: opening, lines, closing",
)
async def statement_json(
    caller: CallerA, db: Db, account_uuid: AccountUuid, month: Month
) -> JSONResponse:
    return ok(await service.statement(db.reader, caller, uuid.UUID(account_uuid), month))
