"""Endpoint 2 of the seed, reading an attachment back, and the list of the caller's own."""

from __future__ import annotations

import uuid
from typing import Annotated, get_args

from fastapi import Path, Request
from fastapi.responses import FileResponse

from cardservice.attachments import service
from cardservice.attachments.blobstore import BlobStore, FilesystemBlobStore
from cardservice.attachments.schemas import AttachmentRecord, AttachmentType, AttachmentUpload
from cardservice.auth.dependencies import CallerA
from cardservice.db.sql import Tx
from cardservice.http.database import Db
from cardservice.http.filters import filters_parameter, one_of, read_filters
from cardservice.http.openapi import BEARER_OR_MFA, Envelope, PagedEnvelope
from cardservice.http.router import JSONResponse, Router, StandardPage, body_schema, ok, read_json
from cardservice.values.patterns import UUID_PATTERN

router = Router(tags=["attachments"])
ATTACHMENT_FILTERS = {
    "type": one_of(*get_args(AttachmentType)).describe("Only attachments of this type")
}


def blob_store(request: Request) -> BlobStore:
    """The app's blob store, made on first use from its settings."""
    state = request.app.state
    if not hasattr(state, "blob_store"):
        state.blob_store = FilesystemBlobStore(state.settings.blob_dir)
    store: BlobStore = state.blob_store
    return store


@router.post(
    "/attachment",
    status_code=201,
    response_model=Envelope[AttachmentRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(AttachmentUpload)},
    summary="Upload an attachment (base64)",
)
async def upload_attachment(request: Request, caller: CallerA, db: Db) -> JSONResponse:
    """Store a receipt, invoice, document or photo (base64, 1 byte .. 10 MiB decoded by
    default; JPEG, PNG, WebP or PDF by content, else 422 `unsupported_file_type`). Answers 201
    with its uuid, type, detected MIME type, size and SHA-256; use the uuid as dispute
    evidence."""
    limit = request.app.state.settings.max_attachment_bytes
    body = await read_json(request, AttachmentUpload, max_bytes=service.upload_body_limit(limit))
    type_, data = body.type, service.decode(body.file, limit)
    del body  # drop the base64 text: one copy of the file in memory is enough
    mime, digest = await service.keep_bytes(blob_store(request), data)

    async def record(tx: Tx) -> AttachmentRecord:
        return await service.store_attachment(tx, caller.user_uuid, type_, mime, len(data), digest)

    return ok(await db.transact(record), status_code=201)


@router.get(
    "/attachments",
    response_model=PagedEnvelope[list[AttachmentRecord]],
    openapi_extra={**BEARER_OR_MFA, **filters_parameter(ATTACHMENT_FILTERS)},
    summary="The caller's own attachments, newest first",
)
async def list_attachments(
    request: Request, caller: CallerA, db: Db, page: StandardPage
) -> JSONResponse:
    """The caller's own attachments, newest first, paginated (metadata only; download each by
    its uuid)."""
    filters = read_filters(request, ATTACHMENT_FILTERS)
    records, total = await service.list_attachments(
        db.reader, caller.user_uuid, filters.get("type"), page.offset, page.size
    )
    return ok(records, meta=page.meta(total))


@router.get(
    "/attachment/{attachmentUuid:uuid36}",
    response_class=FileResponse,
    responses={
        200: {
            "content": {
                kind: {} for kind in ("image/jpeg", "image/png", "image/webp", "application/pdf")
            },
            "description": "The file, with the type it was sniffed as on upload",
        }
    },
    openapi_extra=BEARER_OR_MFA,
    summary="Download one of the caller's attachments",
)
async def download_attachment(
    request: Request,
    caller: CallerA,
    db: Db,
    attachment_uuid: Annotated[
        str,
        Path(
            alias="attachmentUuid",
            pattern=UUID_PATTERN,
            description="The attachment's uuid (`GET /attachments`, or `POST /attachment`'s)",
        ),
    ],
) -> FileResponse:
    """The file, as a download (`Content-Disposition: attachment`): never rendered inline
    from the API's origin, where a `?_code=` link could make it run as a page."""
    record = await service.own_attachment(db.reader, caller.user_uuid, uuid.UUID(attachment_uuid))
    return FileResponse(
        blob_store(request).path(record.sha256),
        media_type=record.mime_type,
        filename=service.download_name(record),
        content_disposition_type="attachment",
        headers={"ETag": f'"{record.sha256}"', "Cache-Control": "private, max-age=86400"},
    )
