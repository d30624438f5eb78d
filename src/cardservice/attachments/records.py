"""The attachment record, built from a row (or a dict of its columns) by column name."""

from __future__ import annotations

from typing import Any

from cardservice.attachments.schemas import AttachmentRecord
from cardservice.db.sql import Row, as_datetime, as_uuid

ATTACHMENT_FIELDS = ("uuid", "type", "mime_type", "size", "sha256", "created_at")


def attachment_columns(table: str) -> str:
    """The select list `attachment_record` reads, from alias `table`."""
    return ", ".join(f"{table}.{name}" for name in ATTACHMENT_FIELDS)


def attachment_record(row: Row | dict[str, Any]) -> AttachmentRecord:
    """The record of an attachment row (selected as `attachment_columns`)."""
    return AttachmentRecord(
        uuid=as_uuid(row["uuid"]),
        type=row["type"],
        mime_type=row["mime_type"],
        size=row["size"],
        sha256=row["sha256"],
        created_at=as_datetime(row["created_at"]),
    )
