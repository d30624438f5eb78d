"""Notification preferences and the sign-in request (docs/mail.md)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints, WithJsonSchema, field_validator

from cardservice.cards.schemas import NULLABLE_POSITIVE_AMOUNT, omittable
from cardservice.values.amounts import MoneyOut, PositiveAmount
from cardservice.values.requests import StrictRequest

KINDS = ("sign_in", "declined_payment", "large_purchase", "team_request_decided",
         "receipt_reminder", "request_to_decide")  # fmt: skip
OPTIONAL_KINDS = KINDS[1:]


class NotificationsRecord(BaseModel):
    sign_in: bool = Field(description="always true: a sign-in link asked for is always mailed")
    declined_payment: bool = Field(description="a payment of one of your cards was declined")
    large_purchase: bool = Field(
        description="a purchase of at least `large_purchase_amount` (in its own currency)"
    )
    large_purchase_amount: MoneyOut | None = Field(
        description="from which amount a purchase is mailed; null: none chosen"
    )
    team_request_decided: bool = Field(description="your team request was approved or declined")
    receipt_reminder: bool = Field(description="the team's receipt policy asks for a receipt")
    request_to_decide: bool = Field(description="(team owners) a member asked for something")


class NotificationsRequest(StrictRequest):
    """PUT /user/notifications: any of the kinds, `true` or `false`; a kind left out stays."""

    sign_in: Annotated[bool | None, WithJsonSchema({"type": "boolean", "enum": [True]})] = (
        omittable()
    )
    """Not optional: only `true` is accepted."""
    declined_payment: bool | None = omittable()
    """A payment of one of your cards was declined."""
    large_purchase: bool | None = omittable()
    """`true` needs an amount: `large_purchase_amount` here or already chosen."""
    large_purchase_amount: Annotated[
        PositiveAmount | None, WithJsonSchema(NULLABLE_POSITIVE_AMOUNT)
    ] = None
    """The amount from which a purchase is mailed (compared in the purchase's currency);
    `null` clears it (then `large_purchase` must be off)."""
    team_request_decided: bool | None = omittable()
    """Your team request was approved or declined."""
    receipt_reminder: bool | None = omittable()
    """The team's receipt policy asks for a purchase's receipt."""
    request_to_decide: bool | None = omittable()
    """(Team owners) a member asked for a card or more budget."""

    @field_validator("sign_in")
    @classmethod
    def _sign_in_stays_on(cls, value: bool | None) -> bool | None:
        if value is False:
            raise ValueError("sign-in mail cannot be turned off")
        return value

    @field_validator(*KINDS, mode="before")
    @classmethod
    def _not_null(cls, value: object) -> object:
        if value is None:
            raise ValueError("true or false; leave the kind out to keep it")
        return value


Email = Annotated[str, StringConstraints(min_length=3, max_length=254)]


class SignInRequest(StrictRequest):
    email: Email
    """The address you are known by; a link is mailed to it if it is a user's."""


class SignInAccepted(BaseModel):
    message: str = Field(description="the same sentence whatever the address")
