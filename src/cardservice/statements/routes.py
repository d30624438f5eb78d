"""`GET /account/{uuid}/statements/{YYYY-MM}` (JSON) and `….pdf` (docs/statements.md#statements)."""

from __future__ import annotations

import logging
import time
import uuid
from typing import Annotated

from fastapi import Path, Response

from cardservice.auth.dependencies import CallerA
from cardservice.http.database import Db
from cardservice.http.openapi import BEARER_OR_MFA
from cardservice.http.router import JSONResponse, Router, ok
from cardservice.statements import service
from cardservice.values.patterns import UUID_PATTERN

log = logging.getLogger(__name__)
router = Router(tags=["accounts"])
AccountUuid = Annotated[
    str,
    Path(
        alias="userAccountUuid",
        pattern=UUID_PATTERN,
        description="The account's uuid (`GET /accounts`)",
    ),
]
# YYYY-MM, checked by the service: a month that fails it is no statement (404, docs/api.md#errors)
Month = Annotated[
    str,
    Path(description="The statement's UTC month, `YYYY-MM` (e.g. `2026-03`); anything else → 404"),
]


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
    """The same statement as the JSON one, as a printable PDF (holder, account, period, opening
    and closing balance, every line, page numbers), named by the month as the service
    parsed it (the path's text is never reflected into a header)."""
    # imported on the first PDF, not at start-up: fpdf2 and fontTools are 0.33 s of the
    # 1.9 s every `cardservice` process spent importing (python -X importtime)
    from cardservice.statements import pdf

    found = await service.statement(db.reader, caller, uuid.UUID(account_uuid), month)
    period, lines = found["period"]["month"], len(found["lines"])
    # rendered on this HTTP worker's loop: the network answers from its own processes
    log.info("statement PDF %s: rendering %d lines", period, lines)
    started = time.perf_counter()
    document = pdf.render(found)
    log.info("statement PDF %s: %d lines rendered in %.2f s", period, lines,
             time.perf_counter() - started)  # fmt: skip
    return Response(
        document,
        media_type="application/pdf",
        headers={"Content-Disposition": f'inline; filename="statement-{period}.pdf"'},
    )


@router.get(
    "/account/{userAccountUuid:uuid36}/statements/{month}",
    openapi_extra=BEARER_OR_MFA,
    summary="An account's statement for a UTC month: opening, lines, closing",
)
async def statement_json(
    caller: CallerA, db: Db, account_uuid: AccountUuid, month: Month
) -> JSONResponse:
    """An account's statement for one UTC month: opening balance, every movement as a line
    (date, description, transaction uuid, positive amount, `credit`/`debit`, running balance),
    closing balance. Opening plus the lines equals closing, to the cent. A month not written
    `YYYY-MM` → 404."""
    return ok(await service.statement(db.reader, caller, uuid.UUID(account_uuid), month))
