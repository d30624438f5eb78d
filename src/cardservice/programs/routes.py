"""`/operator/programs` (docs/operations.md#running-a-program): created, read and changed with the
`cards` scope; the list is the program read back (`reports`, docs/operations.md "Reading the program
back")."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Depends, Path, Request

from cardservice.http.database import Db
from cardservice.http.openapi import Envelope, PagedEnvelope
from cardservice.http.router import JSONResponse, Router, StandardPage, body_schema, ok, read_json
from cardservice.models.base import utcnow
from cardservice.operator import Operator
from cardservice.operator.dependencies import OPERATOR_KEY, acting, operator_with
from cardservice.programs import service
from cardservice.programs.schemas import ChangeProgramRequest, CreateProgramRequest, ProgramRecord
from cardservice.values.patterns import UUID_PATTERN

router = Router(tags=["operator"])
Cards = Annotated[Operator, Depends(operator_with("cards"))]
Reports = Annotated[Operator, Depends(operator_with("reports"))]
Readers = Annotated[Operator, Depends(operator_with("cards", "reports"))]
ProgramUuid = Annotated[
    str,
    Path(
        alias="programUuid",
        pattern=UUID_PATTERN,
        description="The program's uuid (the `uuid` `POST /operator/programs` answered)",
    ),
]


@router.post(
    "/operator/programs",
    status_code=201,
    response_model=Envelope[ProgramRecord],
    openapi_extra={**OPERATOR_KEY, **body_schema(CreateProgramRequest)},
    summary="Create a card program",
)
async def create_program(request: Request, operator: Cards, db: Db) -> JSONResponse:
    """A card program (scope `cards`): the BINs its users may buy from, spending controls
    applied to each of its cards on top of the card's own, and how long its new cards are
    valid."""
    body = await read_json(request, CreateProgramRequest)
    by, now = acting(request, operator), utcnow()
    return ok(
        await db.transact(lambda tx: service.create_program(tx, by, body, now)), status_code=201
    )


@router.get(
    "/operator/programs",
    response_model=PagedEnvelope[list[ProgramRecord]],
    openapi_extra=OPERATOR_KEY,
    summary="List the card programs, oldest first",
)
async def list_operator_programs(_operator: Reports, db: Db, page: StandardPage) -> JSONResponse:
    """Every card program, oldest first, paginated (scope `reports`)."""
    programs, total = await service.list_programs(db.reader, page)
    return ok(programs, meta=page.meta(total))


@router.get(
    "/operator/programs/{programUuid:uuid36}",
    response_model=Envelope[ProgramRecord],
    openapi_extra=OPERATOR_KEY,
    summary="Read a card program",
)
async def get_program(_operator: Readers, db: Db, program_uuid: ProgramUuid) -> JSONResponse:
    """One card program (scope `cards` or `reports`)."""
    return ok(await service.get_program(db.reader, uuid.UUID(program_uuid)))


@router.patch(
    "/operator/programs/{programUuid:uuid36}",
    response_model=Envelope[ProgramRecord],
    openapi_extra={**OPERATOR_KEY, **body_schema(ChangeProgramRequest)},
    summary="Change a card program",
)
async def patch_program(
    request: Request, operator: Cards, db: Db, program_uuid: ProgramUuid
) -> JSONResponse:
    """Change a program's name, BINs, controls or validity (scope `cards`); controls apply at
    the next authorization, validity to cards bought from then on."""
    body = await read_json(request, ChangeProgramRequest)
    program, by, now = uuid.UUID(program_uuid), acting(request, operator), utcnow()
    return ok(await db.transact(lambda tx: service.change_program(tx, by, program, body, now)))
