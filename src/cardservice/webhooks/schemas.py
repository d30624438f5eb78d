"""Webhook endpoint requests and records, delivery attempts (docs/events.md#events-and-webhooks)."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, field_validator

from cardservice.events import EventType, ProgramEventType

# The pattern documents the URL's form (a name, an IPv4 address or a bracketed IPv6 one);
# what may be called is decided by the one check of every outbound call
# (`outbound.check_url`, 422 `url_not_allowed`), which sees through what a pattern cannot.
_PORT = r"(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})"
_HOST = r"(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])"
URL_PATTERN = rf"^https?://{_HOST}(?::{_PORT})?(?:/[!-~]*)?$"
URL_DESCRIPTION = (
    "http(s) URL; host a name (IDN in punycode), an IPv4 address or an [IPv6] address; "
    "loopback, private and reserved addresses refused (also carried inside IPv6 forms)"
)


class EndpointCreate(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    url: str = Field(
        min_length=1, max_length=2048, pattern=URL_PATTERN, description=URL_DESCRIPTION
    )
    description: str | None = Field(default=None, max_length=255)
    """Your label for the endpoint, up to 255 characters."""
    event_types: list[EventType] | None = Field(
        default=None, min_length=1, description="default: every type"
    )


class ProgramEndpointCreate(BaseModel):
    """A program-wide endpoint: a cardholder's endpoint's fields; its `event_types` may also
    name the operator's own events (docs/events.md#the-operators-own-events)."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    url: str = Field(
        min_length=1, max_length=2048, pattern=URL_PATTERN, description=URL_DESCRIPTION
    )
    description: str | None = Field(default=None, max_length=255)
    """Your label for the endpoint, up to 255 characters."""
    event_types: list[ProgramEventType] | None = Field(
        default=None, min_length=1, description="default: every type, the operator's own too"
    )


class EndpointUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    url: str | None = Field(
        default=None,
        min_length=1,
        max_length=2048,
        pattern=URL_PATTERN,
        description=URL_DESCRIPTION,
    )
    description: str | None = Field(default=None, max_length=255)
    """Your label, up to 255 characters; `null` clears it."""
    event_types: list[EventType] | None = Field(default=None, min_length=1)
    """The event types to send (at least one); `null`: every type."""
    enabled: bool | None = Field(default=None, strict=True)
    """`false` stops deliveries (events still queue); `true` resumes them."""


class ProgramEndpointUpdate(BaseModel):
    """A program-wide endpoint's change: a cardholder's endpoint's fields; its `event_types`
    may also name the operator's own events."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    url: str | None = Field(
        default=None,
        min_length=1,
        max_length=2048,
        pattern=URL_PATTERN,
        description=URL_DESCRIPTION,
    )
    description: str | None = Field(default=None, max_length=255)
    """Your label, up to 255 characters; `null` clears it."""
    event_types: list[ProgramEventType] | None = Field(default=None, min_length=1)
    """The event types to send (at least one); `null`: every type, the operator's own too."""
    enabled: bool | None = Field(default=None, strict=True)
    """`false` stops deliveries (events still queue); `true` resumes them."""


class ReplayRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    since: AwareDatetime
    """The window's start: events created at or after this instant (ISO 8601 with an offset,
    e.g. `2026-03-19T10:15:00Z`)."""
    until: AwareDatetime | None = None
    """The window's end, exclusive (ISO 8601 with an offset); default: now."""

    @field_validator("since", "until", mode="before")
    @classmethod
    def _text(cls, value: object) -> object:
        if value is not None and not isinstance(value, str):
            raise ValueError("must be an ISO 8601 date-time with an offset")
        return value

    @field_validator("since", "until")
    @classmethod
    def _in_utc(cls, value: datetime | None) -> datetime | None:
        try:
            return None if value is None else value.astimezone(UTC)
        except OverflowError:
            raise ValueError("out of range") from None


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


class ProgramEndpointRecord(EndpointRecord):
    event_types: list[ProgramEventType] | None  # type: ignore[assignment]
