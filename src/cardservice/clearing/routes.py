"""The operator's clearing files (docs/network.md#clearing-files): `POST /operator/clearing-files`
(scope `network`) books a Mastercard IPM file sent as the body; `GET /operator/clearing-files` and
`GET /operator/clearing-files/{uuid}` (scope `network` or `reports`) show their reports."""

from __future__ import annotations

import tempfile
import uuid
from typing import IO, Annotated

from fastapi import Depends, Path, Request

from cardservice.clearing.schemas import ClearingReport
from cardservice.clearing.service import (
    MAX_BYTES,
    Clearing,
    clearing_file,
    clearing_files,
    ingest,
)
from cardservice.errors import NotFound, PayloadTooLarge, UnsupportedMediaType
from cardservice.http.database import Db
from cardservice.http.openapi import Envelope, PagedEnvelope
from cardservice.http.router import JSONResponse, Router, StandardPage, ok
from cardservice.operator import Operator
from cardservice.operator.dependencies import OPERATOR_KEY, acting, operator_with
from cardservice.values.patterns import UUID_PATTERN

router = Router(tags=["operator"])
Network = Annotated[Operator, Depends(operator_with("network"))]
Readers = Annotated[Operator, Depends(operator_with("network", "reports"))]
FileUuid = Annotated[
    str,
    Path(
        alias="clearingFileUuid",
        pattern=UUID_PATTERN,
        description="The clearing file's uuid (its report's `uuid`)",
    ),
]
OCTETS = "application/octet-stream"
IN_MEMORY = 1 << 20  # a body larger than this is spooled to a temporary file
UPLOAD = {
    **OPERATOR_KEY,
    "requestBody": {
        "required": True,
        "content": {OCTETS: {"schema": {"type": "string", "format": "binary"}}},
    },
}


class NoSuchFile(NotFound):
    message = "Clearing file not found."


async def _received(request: Request) -> IO[bytes]:
    """The body, as a file (413 past 50 MiB, 415 unless `application/octet-stream`)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BYTES:
        raise PayloadTooLarge("A clearing file is at most 50 MiB.")
    content_type = request.headers.get("content-type", "")
    if content_type.split(";")[0].strip().lower() != OCTETS:
        raise UnsupportedMediaType(f"Send the file's bytes as {OCTETS}.")
    body = tempfile.SpooledTemporaryFile(max_size=IN_MEMORY)  # noqa: SIM115 - returned open
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BYTES:
            body.close()
            raise PayloadTooLarge("A clearing file is at most 50 MiB.")
        body.write(chunk)
    body.seek(0)
    return body


@router.post(
    "/operator/clearing-files",
    status_code=201,
    response_model=Envelope[ClearingReport],
    openapi_extra=UPLOAD,
    summary="Book a Mastercard IPM clearing file",
)
async def post_clearing_file(request: Request, operator: Network, db: Db) -> JSONResponse:
    """Book a clearing file (scope `network`; the file's bytes as
    `application/octet-stream`, at most 50 MiB): 201 with its report. The same file again
    answers 200 with its first report and moves nothing; a bad file (unreadable, no header
    or trailer, a trailer count that differs, a file id ingested with other bytes) is 422
    `clearing_file_invalid` and moves nothing."""
    body = await _received(request)
    try:
        done = await ingest(Clearing(db, request.app.state.cipher), body, acting(request, operator))
    finally:
        body.close()
    return ok(done.report, status_code=201 if done.created else 200)


@router.get(
    "/operator/clearing-files",
    response_model=PagedEnvelope[list[ClearingReport]],
    openapi_extra=OPERATOR_KEY,
    summary="The clearing files booked, newest first",
)
async def list_clearing_files(_operator: Readers, db: Db, page: StandardPage) -> JSONResponse:
    """The booked clearing files' reports, newest first, paged (scope `network` or
    `reports`)."""
    reports, total = await clearing_files(db, page.size, page.offset)
    return ok(reports, meta=page.meta(total))


@router.get(
    "/operator/clearing-files/{clearingFileUuid}",
    response_model=Envelope[ClearingReport],
    openapi_extra=OPERATOR_KEY,
    summary="One clearing file's report",
)
async def get_clearing_file(_operator: Readers, db: Db, file_uuid: FileUuid) -> JSONResponse:
    """One booked clearing file's report (scope `network` or `reports`)."""
    report = await clearing_file(db, uuid.UUID(file_uuid))
    if report is None:
        raise NoSuchFile()
    return ok(report)
