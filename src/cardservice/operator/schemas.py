"""Operator API requests and records (`extra="forbid"`: unknown fields are 422)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal
from uuid import UUID

from pydantic import BaseModel, Field, StringConstraints

from cardservice.values.amounts import PositiveAmount, WholeNumber
from cardservice.values.requests import StrictRequest, UuidStr

Email = Annotated[str, StringConstraints(min_length=3, max_length=254)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=120)]
ExternalId = Annotated[str, StringConstraints(min_length=1, max_length=128)]
Description = Annotated[str, StringConstraints(max_length=255)]


class CreateUserRequest(StrictRequest):
    email: Email
    """The user's email, unique (case ignored); 409 `email_taken` when in use."""
    name: Name
    """The user's name as shown in the dashboard and on statements."""
    team: Name | None = None
    """The team's name; users of one team with role `owner` see the members' accounts and
    events, read-only."""
    role: Literal["owner", "member"] | None = None
    """`owner` or `member` of `team`."""
    program_uuid: UuidStr | None = None
    """The card program the user belongs to (its BINs and controls apply); none by default."""


class ChangeUserRequest(StrictRequest):
    """Any of these; `program_uuid: null` takes the user out of their program."""

    name: Name | None = None
    """A new name."""
    status: Literal["active", "suspended"] | None = None
    """`suspended`: the user's credentials answer 401 and their cards decline
    `account_inactive`; `active` restores both."""
    program_uuid: UuidStr | None = None
    """Move the user to this program."""


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
    """A label for the token (which app or script holds it)."""
    expires_in_days: WholeNumber | None = Field(default=None, ge=1, le=3650)
    """Days until the token expires, 1..3650; left out, it does not expire (revoke it with
    `cardservice tokens revoke`)."""


class IssuedToken(BaseModel):
    token: str
    expires_at: datetime | None


class SignInLink(BaseModel):
    url: str
    expires_at: datetime


class CreateAccountRequest(StrictRequest):
    user_uuid: UuidStr
    """The user who will hold the account."""
    name: Name
    """The account's name, as the holder sees it."""
    currency: Annotated[str, StringConstraints(pattern=r"^[A-Z]{3}$")]
    """ISO 4217, upper case (`USD`), one of the catalogue's currencies; cards bought on the
    account are in it."""
    type: Annotated[str, StringConstraints(min_length=1, max_length=32)] = "main"
    """An account type of `/dictionary/account-types` (default `main`)."""


class ChangeAccountRequest(StrictRequest):
    status: Literal["active", "frozen", "closed"]
    """`frozen` (its cards decline `account_inactive`), `closed` (final) or `active`."""


class MoneyRequest(StrictRequest):
    """A credit or a debit: idempotent by `external_id`."""

    amount: PositiveAmount
    """How much, in the account's currency (a JSON number, at most 2 decimals, > 0)."""
    external_id: ExternalId
    """Your reference for this movement (a bank transfer's id), the idempotency key: the same
    body again returns the same transaction; another body → 409."""
    description: Description | None = None
    """Shown on the transaction and the statement."""
