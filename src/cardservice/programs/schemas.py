"""Program requests and records."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

from pydantic import BaseModel, Field, StringConstraints, field_validator

from cardservice.cards import SpendingControls, SpendingControlsRecord
from cardservice.values.amounts import WholeNumber
from cardservice.values.requests import StrictRequest, UuidStr

BinUuids = Annotated[list[UuidStr], Field(min_length=1, max_length=100)]
Validity = Annotated[WholeNumber, Field(ge=1, le=120)]


class CreateProgramRequest(StrictRequest):
    name: Annotated[str, StringConstraints(min_length=1, max_length=120)]
    """The program's name, 1..120 characters."""
    bin_uuids: BinUuids
    """The BINs (`GET /dictionary/bins`) its users may buy cards from; others → 422
    `bin_not_allowed`."""
    spending_controls: SpendingControls | None = None
    """Controls applied to every card of the program, on top of the card's own."""
    card_validity_months: Validity = 36
    """How long new cards of the program are valid, in months (default 36)."""
    provisional_credit: bool = False
    """A dispute credits the card when it is opened, before the network's outcome
    (docs/disputes.md#money); default false."""


class ChangeProgramRequest(StrictRequest):
    """Any of these; `spending_controls: null` removes the program's controls."""

    name: Annotated[str, StringConstraints(min_length=1, max_length=120)] | None = None
    """A new name, 1..120 characters."""
    bin_uuids: BinUuids | None = None
    """The BINs its users may buy from, replacing the list."""
    spending_controls: SpendingControls | None = None
    """The program's controls, replaced as a whole; `null` removes them."""
    card_validity_months: Validity | None = None
    """Validity of cards bought from now on, in months."""
    provisional_credit: bool | None = None
    """Disputes opened from now on credit the card at once."""

    @field_validator(
        "name", "bin_uuids", "card_validity_months", "provisional_credit", mode="before"
    )
    @classmethod
    def _omitted_not_null(cls, value: object) -> object:
        if value is None:
            raise ValueError("omit the field instead of sending null")
        return value


class ProgramRecord(BaseModel):
    uuid: UUID
    name: str
    bin_uuids: list[UUID]
    spending_controls: SpendingControlsRecord | None
    card_validity_months: int
    provisional_credit: bool
    created_at: datetime
    updated_at: datetime
