"""Attachment rules: decoding, size, sniffing, and ownership."""

from __future__ import annotations

import asyncio
import base64
import binascii
import re
import uuid

from cardservice.attachments.blobstore import BlobStore
from cardservice.attachments.schemas import AttachmentRecord
from cardservice.attachments.sniff import sniff
from cardservice.db import Database
from cardservice.errors import NotFound, PayloadTooLarge, RuleViolation, ValidationFailed
from cardservice.models.base import utcnow
from cardservice.sql import Reader, Row, Tx, as_datetime, as_uuid

DATA_URL = re.compile(r"^data:[\w.+-]+/[\w.+-]+(?:;[\w=.-]+)*;base64,", re.ASCII)
JSON_OVERHEAD = 64 * 1024
EXTENSIONS = {
    "image/jpeg": "jpg",
    "image/png": "png",
    "image/webp": "webp",
    "application/pdf": "pdf",
}


class UnsupportedFileType(RuleViolation):
    code, message = "unsupported_file_type", "Only JPEG, PNG, WebP and PDF files are accepted."


class AttachmentNotFound(NotFound):
    message = "Attachment not found."


def upload_body_limit(max_decoded: int) -> int:
    """The largest request body that can still carry `max_decoded` bytes in base64."""
    return -(-max_decoded // 3) * 4 + JSON_OVERHEAD


def decode(file: str, max_decoded: int) -> bytes:
    """base64 (optionally a data: URL) → bytes; 422 when broken or empty, 413 when too big."""
    payload = DATA_URL.sub("", file, count=1).encode("ascii", errors="replace")
    if len(payload) // 4 * 3 > max_decoded + 2:
        raise PayloadTooLarge("The file is larger than the attachment limit.")
    try:
        data = base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        raise ValidationFailed(errors={"file": ["must be base64"]}) from None
    if not data:
        raise ValidationFailed(errors={"file": ["must not be empty"]})
    if len(data) > max_decoded:
        raise PayloadTooLarge("The file is larger than the attachment limit.")
    return data


def download_name(record: AttachmentRecord) -> str:
    """The file name a download is saved under: `<uuid>.<ext>`, never the client's."""
    return f"{record.uuid}.{EXTENSIONS.get(record.mime_type, 'bin')}"


def _record(row: Row) -> AttachmentRecord:
    return AttachmentRecord(
        uuid=as_uuid(row["uuid"]),
        type=row["type"],
        mime_type=row["mime_type"],
        size=row["size"],
        sha256=row["sha256"],
        created_at=as_datetime(row["created_at"]),
    )


COLUMNS = "uuid, user_uuid, type, mime_type, size, sha256, created_at"


async def store_attachment(
    db: Database, store: BlobStore, user_uuid: uuid.UUID, type_: str, data: bytes
) -> AttachmentRecord:
    """Keep the bytes (once per content, before the unit: a repeat writes nothing new) and a
    metadata row owned by the user."""
    mime = sniff(data)
    if mime is None:
        raise UnsupportedFileType()
    digest = await asyncio.to_thread(store.put, data)
    values = (uuid.uuid4(), user_uuid, type_, mime, len(data), digest, utcnow())

    async def work(tx: Tx) -> Row:
        row = await tx.row(
            f"INSERT INTO attachments ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)"  # noqa: S608
            f" RETURNING {COLUMNS}",
            *values,
        )
        assert row is not None
        return row

    return _record(await db.transact(work))


async def own_attachment(
    reader: Reader, user_uuid: uuid.UUID, attachment_uuid: uuid.UUID
) -> AttachmentRecord:
    """One of the user's attachments; anybody else's is 404."""
    row = await reader.row(
        f"SELECT {COLUMNS} FROM attachments WHERE uuid = $1 AND user_uuid = $2",  # noqa: S608
        attachment_uuid,
        user_uuid,
    )
    if row is None:
        raise AttachmentNotFound()
    return _record(row)
