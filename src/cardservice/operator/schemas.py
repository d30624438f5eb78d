"""Operator API requests and records (`extra="forbid"`: unknown fields are 422)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal
from uuid import UUID

from pydantic import BaseModel, Field, StringConstraints

from cardservice.money_types import PositiveAmount, WholeNumber
from cardservice.request_types import StrictRequest, UuidStr

Email = Annotated[str, StringConstraints(min_length=3, max_length=254)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=120)]
ExternalId = Annotated[str, StringConstraints(min_length=1, max_length=128)]
Description = Annotated[str, StringConstraints(max_length=255)]


class CreateUserRequest(StrictRequest):
    email: Email
    name: Name
    team: Name | None = None
    role: Literal["owner", "member"] | None = None
    program_uuid: UuidStr | None = None


class ChangeUserRequest(StrictRequest):
    """Any of these; `program_uuid: null` takes the user out of their program."""

    name: Name | None = None
    status: Literal["active", "suspended"] | None = None
    program_uuid: UuidStr | None = None


class UserRecord(BaseModel):
    uuid: UUID
    email: str
    name: str
    team: str | None
    role: str | None
    program_uuid: UUID | None
    status: Literal["active", "suspended"]
    created_at: datetime


class IssueTokenRequest(StrictRequest):
    name: Name | None = None
    expires_in_days: WholeNumber | None = Field(default=None, ge=1, le=3650)


class IssuedToken(BaseModel):
    token: str
    expires_at: datetime | None


class SignInLink(BaseModel):
    url: str
    expires_at: datetime


class CreateAccountRequest(StrictRequest):
    user_uuid: UuidStr
    name: Name
    currency: Annotated[str, StringConstraints(pattern=r"^[A-Z]{3}$")]
    type: Annotated[str, StringConstraints(min_length=1, max_length=32)] = "main"


class ChangeAccountRequest(StrictRequest):
    status: Literal["active", "frozen", "closed"]


class MoneyRequest(StrictRequest):
    """A credit or a debit: idempotent by `external_id`."""

    amount: PositiveAmount
    external_id: ExternalId
    description: Description | None = None
