"""The operator's catalogue requests and records (docs/operations.md#your-own-catalogue):
BINs, a program's fees, dated FX rates (`extra="forbid"`: unknown fields are 422)."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Annotated, Literal
from uuid import UUID

from pydantic import (
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    Field,
    StringConstraints,
    WithJsonSchema,
    field_validator,
)

from cardservice.dictionaries import FeeRecord
from cardservice.values.amounts import Amount, MoneyOut, PositiveRate
from cardservice.values.requests import StrictRequest

Currency = Annotated[str, StringConstraints(pattern=r"^[A-Z]{3}$")]


def _exact_percent(value: object) -> object:
    """JSON numbers only, as the amounts (`values.money`)."""
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise ValueError("must be a number")
    return Decimal(value) if isinstance(value, int) else value


Percent = Annotated[
    Decimal,
    BeforeValidator(_exact_percent),
    Field(ge=0, le=100, decimal_places=2),
    WithJsonSchema(
        {"type": "number", "format": "decimal", "minimum": 0, "maximum": 100, "multipleOf": 0.01}
    ),
]


class CreateBinRequest(StrictRequest):
    bin: Annotated[str, StringConstraints(pattern=r"^[0-9]{6,8}$")]
    """The range's first 6 to 8 digits, as text (`"45717360"`): a Visa BIN starts with 4, a
    Mastercard BIN with 51–55 or 2221–2720. One already issued from, or overlapping one (a
    prefix of it, or it a prefix of this), → 409 `bin_taken`."""
    brand: Literal["visa", "mastercard"]
    """The card network of the range."""
    currency: Currency
    """The currency of its cards: one of the service's account currencies (ISO 4217)."""
    status: Literal["available", "unavailable"]
    """`available`: cards can be bought on it; `unavailable`: listed, not sold."""
    card_price: Amount
    """The price of a card on it, in its currency (≥ 0, at most 2 decimals): the `card_issue`
    fee its buyers pay instead of the fee schedule's."""


class ChangeBinRequest(StrictRequest):
    """Any of these; a field is sent with a value or left out, never `null`."""

    status: Literal["available", "unavailable"] | None = None
    """`unavailable` stops sales on it (cards already issued keep working); `available`
    resumes them."""
    card_price: Amount | None = None
    """A new price for the cards bought from now on."""

    @field_validator("status", "card_price", mode="before")
    @classmethod
    def _omitted_not_null(cls, value: object) -> object:
        if value is None:
            raise ValueError("omit the field instead of sending null")
        return value


class ProgramFeesRequest(StrictRequest):
    """The program's fees, replaced as a whole: a field left out (or `null`) is not overridden,
    so its cardholders pay the schedule's; `{}` removes every override."""

    card_decline: Amount | None = None
    """Per declined authorization, in the card's currency (the schedule's `card_decline`)."""
    card_fx: Percent | None = None
    """Percent of a foreign-currency amount (`card_fx`), e.g. `1.25` for 1.25 %."""
    card_physical: Amount | None = None
    """Per physical card ordered, in the account's currency (`card_physical`)."""
    card_atm: Amount | None = None
    """Per ATM withdrawal, in the card's currency (`card_atm`)."""
    topup_percent: Percent | None = None
    """Percent of a new card's start balance (the schedule's `card_topup`)."""


class ProgramFeesRecord(BaseModel):
    program_uuid: UUID
    card_decline: MoneyOut | None
    card_fx: MoneyOut | None
    card_physical: MoneyOut | None
    card_atm: MoneyOut | None
    topup_percent: MoneyOut | None
    fees: list[FeeRecord] = Field(
        description="What the program's cardholders pay: the schedule with the program's fees "
        "(a cardholder's own override, if any, still comes first)."
    )


class AddFxRateRequest(StrictRequest):
    base: Currency
    """The merchant's currency (ISO 4217, upper case)."""
    quote: Currency
    """The card's currency: one of the service's account currencies; not `base`."""
    rate: PositiveRate
    """1 `base` = `rate` `quote`; > 0, at most 10 decimals."""
    effective_at: Annotated[AwareDatetime, Field(strict=False)]
    """From when it applies (ISO 8601 with an offset); in the future, the current rate stays
    until then. Not before the pair's last authorization (409 `rate_predates_authorization`):
    history is not rewritten."""

    @field_validator("effective_at", mode="before")
    @classmethod
    def _text(cls, value: object) -> object:
        if not isinstance(value, str):
            raise ValueError("must be an ISO 8601 date-time with an offset")
        return value

    @field_validator("effective_at")
    @classmethod
    def _in_utc(cls, value: datetime) -> datetime:
        try:
            return value.astimezone(UTC)
        except OverflowError:
            raise ValueError("out of range") from None


class FxRateEntry(BaseModel):
    """A rate the operator set, as `GET /operator/fx-rates` lists them."""

    uuid: UUID
    base: str
    quote: str
    rate: Annotated[Decimal, WithJsonSchema({"type": "number", "format": "decimal"})]
    effective_at: datetime
    created_at: datetime
