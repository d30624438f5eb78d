"""The decision endpoint's request and record."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from cardservice.values.requests import StrictRequest

OnTimeout = Literal["approve", "decline"]


class AuthorizationEndpointRequest(StrictRequest):
    url: Annotated[str, StringConstraints(min_length=1, max_length=2048)]
    """The http(s) URL that decides, up to 2048 characters; private and loopback addresses
    refused (422 `url_not_allowed`) unless allowed by configuration."""
    timeout_ms: int = Field(default=1500, ge=100, le=3000)
    """How long to wait for its answer, 100..3000 ms (default 1500); on the ISO 8583 channel at
    most 2000."""
    on_timeout: OnTimeout = "decline"
    """What happens when it does not answer in time or fails: `decline` (default, as
    `do_not_honor`) or `approve`."""


class AuthorizationEndpointRecord(BaseModel):
    url: str
    timeout_ms: int
    on_timeout: OnTimeout
    consecutive_failures: int
    stand_in_until: datetime | None
    secret: str | None = Field(
        default=None, description="the whsec_ signing secret: shown on PUT only"
    )
    created_at: datetime
    updated_at: datetime
