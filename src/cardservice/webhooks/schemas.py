"""Webhook endpoint requests and records, delivery attempts (API.md §9)."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from cardservice.events.schemas import EventType


class EndpointCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str = Field(min_length=1, max_length=2048)
    description: str | None = Field(default=None, max_length=255)
    event_types: list[EventType] | None = Field(
        default=None, min_length=1, description="default: every type"
    )


class EndpointUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str | None = Field(default=None, min_length=1, max_length=2048)
    description: str | None = Field(default=None, max_length=255)
    event_types: list[EventType] | None = Field(default=None, min_length=1)
    enabled: bool | None = None


class ReplayRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    since: AwareDatetime
    until: AwareDatetime | None = None


class EndpointRecord(BaseModel):
    uuid: UUID
    url: str
    description: str | None
    event_types: list[EventType] | None
    enabled: bool
    secret: str = Field(description="in full only on create and rotation; masked elsewhere")
    created_at: datetime
    updated_at: datetime


class AttemptRecord(BaseModel):
    event_uuid: UUID
    attempt: int
    status_code: int | None
    error: str | None
    duration_ms: int
    next_attempt_at: datetime | None
    created_at: datetime
