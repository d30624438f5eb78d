"""Attachment rules: decoding, size, sniffing, and ownership."""

from __future__ import annotations

import asyncio
import base64
import binascii
import re
import uuid
from typing import Any

from cardservice.attachments.blobstore import BlobStore
from cardservice.attachments.schemas import AttachmentRecord
from cardservice.attachments.sniff import sniff
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


_COLUMNS = "uuid, type, mime_type, size, sha256, created_at"


def attachment_record(row: Row | dict[str, Any]) -> AttachmentRecord:
    """The record of an attachment row (selected as `_COLUMNS`)."""
    return AttachmentRecord(
        uuid=as_uuid(row["uuid"]),
        type=row["type"],
        mime_type=row["mime_type"],
        size=row["size"],
        sha256=row["sha256"],
        created_at=as_datetime(row["created_at"]),
    )


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
    await tx.execute(
        f"INSERT INTO attachments (user_uuid, {_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)",  # noqa: S608
        user_uuid,
        *row.values(),
    )
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
    where = "user_uuid = $1"
    args: list[Any] = [user_uuid]
    if type_ is not None:
        where += " AND type = $2"
        args.append(type_)
    n = len(args)
    rows = await reader.scan(
        f"SELECT {_COLUMNS} FROM attachments WHERE {where}"  # noqa: S608 - our fragments
        f" ORDER BY created_at DESC, uuid DESC LIMIT ${n + 1} OFFSET ${n + 2}",
        *args,
        limit,
        offset,
    )
    total = await reader.value(f"SELECT count(*) FROM attachments WHERE {where}", *args)  # noqa: S608
    return [attachment_record(row) for row in rows], int(total)


async def own_attachment(
    reader: Reader, user_uuid: uuid.UUID, attachment_uuid: uuid.UUID
) -> AttachmentRecord:
    """One of the user's attachments; anybody else's is 404."""
    row = await reader.row(
        f"SELECT {_COLUMNS} FROM attachments WHERE uuid = $1 AND user_uuid = $2",  # noqa: S608
        attachment_uuid,
        user_uuid,
    )
    if row is None:
        raise AttachmentNotFound()
    return attachment_record(row)
