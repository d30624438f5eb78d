"""Attachment requests and records."""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

BASE64_PATTERN = (
    r"^(?:data:[A-Za-z0-9.+-]+/[A-Za-z0-9.+-]+(?:;[A-Za-z0-9=.-]+)*;base64,)?"
    r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$"
)
AttachmentType = Literal["receipt", "invoice", "document", "photo"]


class AttachmentUpload(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", use_attribute_docstrings=True)

    type: AttachmentType
    """What the file is: `receipt`, `invoice`, `document` or `photo`."""
    file: str = Field(
        min_length=4,
        pattern=BASE64_PATTERN,
        description="base64 (standard alphabet, padded), optionally as a data: URL",
    )


class AttachmentRecord(BaseModel):
    uuid: UUID
    type: AttachmentType
    mime_type: str
    size: int
    sha256: str
    created_at: datetime
