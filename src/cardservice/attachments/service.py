"""Attachment rules: decoding, size, sniffing, and ownership."""

from __future__ import annotations

import asyncio
import base64
import binascii
import re
import uuid

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.attachments.blobstore import BlobStore
from cardservice.attachments.schemas import AttachmentRecord
from cardservice.attachments.sniff import sniff
from cardservice.errors import NotFound, PayloadTooLarge, RuleViolation, ValidationFailed
from cardservice.models import Attachment

DATA_URL = re.compile(r"^data:[\w.+-]+/[\w.+-]+(?:;[\w=.-]+)*;base64,", re.ASCII)
JSON_OVERHEAD = 64 * 1024


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


def _record(row: Attachment) -> AttachmentRecord:
    return AttachmentRecord(
        uuid=row.uuid,
        type=row.type,
        mime_type=row.mime_type,
        size=row.size,
        sha256=row.sha256,
        created_at=row.created_at,
    )


async def store_attachment(
    session: AsyncSession, store: BlobStore, user_uuid: uuid.UUID, type_: str, data: bytes
) -> AttachmentRecord:
    """Keep the bytes (once per content) and a metadata row owned by the user."""
    mime = sniff(data)
    if mime is None:
        raise UnsupportedFileType()
    digest = await asyncio.to_thread(store.put, data)
    row = Attachment(user_uuid=user_uuid, type=type_, mime_type=mime, size=len(data), sha256=digest)
    session.add(row)
    await session.flush()
    return _record(row)


async def own_attachment(
    session: AsyncSession, user_uuid: uuid.UUID, attachment_uuid: uuid.UUID
) -> AttachmentRecord:
    """One of the user's attachments; anybody else's is 404."""
    row = await session.scalar(
        select(Attachment).where(
            Attachment.uuid == attachment_uuid, Attachment.user_uuid == user_uuid
        )
    )
    if row is None:
        raise AttachmentNotFound()
    return _record(row)
