"""The clearing file's report as the API shows it (docs/network.md#clearing-files)."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from uuid import UUID

from pydantic import BaseModel, Field


class Presentments(BaseModel):
    matched: int = Field(
        description="Purchase presentments that found their authorization and moved money "
        "(captures, and amount differences)."
    )
    duplicates: int = Field(description="Found captured already at the same amount.")
    force_posted: int = Field(description="Booked as new purchases captured at once.")


class AmountDifference(BaseModel):
    message_number: int
    transaction_uuid: UUID
    authorized: Decimal = Field(description="What was captured before the presentment.")
    presented: Decimal


class Unmatched(BaseModel):
    message_number: int
    reason: str


class RepresentmentException(BaseModel):
    message_number: int
    reason: str
    transaction_uuid: UUID | None = Field(description="The disputed purchase.")


class PreArbitrationAnswers(BaseModel):
    accepted: int = Field(0, description="Pre-arbitrations the acquirer accepted (1644 640).")
    declined: int = Field(0, description="Pre-arbitrations the acquirer declined (1644 641).")


class Representments(BaseModel):
    received: int = Field(description="Second presentments that answered a chargeback.")
    exceptions: list[RepresentmentException] = Field(
        description="Second presentments refused, nothing moved (more than the chargeback)."
    )
    pre_arbitration: PreArbitrationAnswers = Field(
        default_factory=PreArbitrationAnswers,
        description="The acquirer's answers to pre-arbitrations booked"
        " (docs/disputes.md#the-acquirers-answer-to-a-pre-arbitration).",
    )


class Total(BaseModel):
    currency: str
    count: int
    amount: Decimal = Field(description="Purchases less refunds presented (DE 4).")


class ClearingReport(BaseModel):
    uuid: UUID
    file_id: str = Field(description="PDS 0105 of the file's header.")
    sha256: str
    received_at: datetime
    messages: int = Field(description="Every message read, header and trailer included.")
    presentments: Presentments
    refunds: int
    representments: Representments
    amount_differences: list[AmountDifference]
    unmatched: list[Unmatched]
    ignored: int
    totals: list[Total]
