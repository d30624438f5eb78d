"""Attachment rules: decoding, size, sniffing, and ownership."""

from __future__ import annotations

import asyncio
import base64
import binascii
import re
import uuid

from cardservice.attachments import repository
from cardservice.attachments.blobstore import BlobStore
from cardservice.attachments.records import attachment_record
from cardservice.attachments.schemas import AttachmentRecord
from cardservice.attachments.sniff import sniff
from cardservice.db.sql import Reader, Tx
from cardservice.errors import NotFound, PayloadTooLarge, RuleViolation, ValidationFailed
from cardservice.models.base import utcnow

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


async def store_attachment(
    tx: Tx, user_uuid: uuid.UUID, type_: str, mime: str, size: int, digest: str
) -> AttachmentRecord:
    """The metadata row of bytes already kept in the blob store, owned by the user."""
    row = {
        "uuid": uuid.uuid4(),
        "type": type_,
        "mime_type": mime,
        "size": size,
        "sha256": digest,
        "created_at": utcnow(),
    }
    await repository.insert_attachment(tx, user_uuid, row)
    return attachment_record(row)


async def keep_bytes(store: BlobStore, data: bytes) -> tuple[str, str]:
    """Sniff the bytes and keep them (once per content); their mime type and sha256. Runs
    before the write unit: a retried unit must not write the file again."""
    mime = sniff(data)
    if mime is None:
        raise UnsupportedFileType()
    return mime, await asyncio.to_thread(store.put, data)


async def list_attachments(
    reader: Reader, user_uuid: uuid.UUID, type_: str | None, offset: int, limit: int
) -> tuple[list[AttachmentRecord], int]:
    """The user's own attachments, newest first (ties by uuid), and how many match: a team
    owner's list holds only their own uploads, as `GET /attachment/{uuid}` serves only those."""
    rows, total = await repository.page_of_attachments(reader, user_uuid, type_, offset, limit)
    return [attachment_record(row) for row in rows], total


async def own_attachment(
    reader: Reader | Tx, user_uuid: uuid.UUID, attachment_uuid: uuid.UUID
) -> AttachmentRecord:
    """One of the user's attachments; anybody else's is 404."""
    row = await repository.own_attachment(reader, user_uuid, attachment_uuid)
    if row is None:
        raise AttachmentNotFound()
    return attachment_record(row)
