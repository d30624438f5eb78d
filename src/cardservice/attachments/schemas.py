"""Attachment requests and records."""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

AttachmentType = Literal["receipt", "invoice", "document", "photo"]


class AttachmentUpload(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    type: AttachmentType
    file: str = Field(min_length=1, description="base64, optionally as a data: URL")


class AttachmentRecord(BaseModel):
    uuid: UUID
    type: AttachmentType
    mime_type: str
    size: int
    sha256: str
    created_at: datetime
