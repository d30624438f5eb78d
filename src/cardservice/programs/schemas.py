"""Program requests and records."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

from pydantic import BaseModel, Field, StringConstraints, field_validator

from cardservice.cards.schemas import SpendingControls, SpendingControlsRecord
from cardservice.money_types import WholeNumber
from cardservice.request_types import StrictRequest, UuidStr

BinUuids = Annotated[list[UuidStr], Field(min_length=1, max_length=100)]
Validity = Annotated[WholeNumber, Field(ge=1, le=120)]


class CreateProgramRequest(StrictRequest):
    name: Annotated[str, StringConstraints(min_length=1, max_length=120)]
    bin_uuids: BinUuids
    spending_controls: SpendingControls | None = None
    card_validity_months: Validity = 36


class ChangeProgramRequest(StrictRequest):
    """Any of these; `spending_controls: null` removes the program's controls."""

    name: Annotated[str, StringConstraints(min_length=1, max_length=120)] | None = None
    bin_uuids: BinUuids | None = None
    spending_controls: SpendingControls | None = None
    card_validity_months: Validity | None = None

    @field_validator("name", "bin_uuids", "card_validity_months", mode="before")
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
    created_at: datetime
    updated_at: datetime
