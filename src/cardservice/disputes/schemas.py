"""Dispute records and requests."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal
from uuid import UUID

from pydantic import AfterValidator, BaseModel, Field, StringConstraints

from cardservice.values.amounts import MoneyOut, PositiveAmount
from cardservice.values.requests import StrictRequest, UuidStr

DisputeReason = Literal[
    "fraudulent", "not_received", "duplicate", "canceled", "not_as_described", "other"
]
DisputeStatus = Literal[
    "open",
    "chargeback_sent",
    "representment_received",
    "pre_arbitration",
    "won",
    "lost",
    "withdrawn",
]
MAX_EVIDENCE = 20


def _distinct(values: list[str]) -> list[str]:
    if len({value.lower() for value in values}) != len(values):
        raise ValueError("attachment uuids must be distinct")
    return [value.lower() for value in values]


EvidenceUuids = Annotated[
    list[UuidStr],
    Field(max_length=MAX_EVIDENCE, json_schema_extra={"uniqueItems": True}),
    AfterValidator(_distinct),
]


class SentStep(BaseModel):
    """A 1442 of the issuer's outgoing file (docs/disputes.md)."""

    file_id: str
    message_number: int
    sent_at: datetime


class Representment(BaseModel):
    """The merchant's second presentment, a 1240 of an incoming file (docs/disputes.md)."""

    file_id: str
    message_number: int
    amount: MoneyOut
    received_at: datetime
    message: str | None


class HistoryStep(BaseModel):
    status: DisputeStatus
    at: datetime


class DisputeRecord(BaseModel):
    uuid: UUID
    transaction_uuid: UUID
    amount: MoneyOut
    currency: str
    reason: DisputeReason
    reason_code: str = Field(description="Mastercard's reason code of `reason` (DE 25)")
    explanation: str | None
    status: DisputeStatus
    evidence_attachment_uuids: list[UUID]
    credit_transaction_uuid: UUID | None = Field(
        description="the `dispute_credit` transaction of a won dispute"
    )
    provisional_credit: MoneyOut = Field(
        description="credited to the card ahead of the outcome (the program's"
        " `provisional_credit`), 0 when none or taken back"
    )
    arn: str | None = Field(description="the disputed purchase's ARN (DE 31 of the chargeback)")
    chargeback: SentStep | None
    representment: Representment | None
    pre_arbitration: SentStep | None
    deadline: date | None = Field(description="the date the next step is due")
    history: list[HistoryStep]
    created_at: datetime
    updated_at: datetime
    resolved_at: datetime | None


class OpenDisputeRequest(StrictRequest):
    transaction_uuid: UuidStr
    """A completed `card_purchase` of the caller, captured within the last 120 days."""
    reason: DisputeReason
    """Why: `fraudulent`, `not_received`, `duplicate`, `canceled`, `not_as_described` or
    `other`."""
    explanation: Annotated[str, StringConstraints(min_length=1, max_length=2000)] | None = None
    """What happened, in the cardholder's words, 1..2000 characters."""
    evidence_attachment_uuids: EvidenceUuids | None = None
    """Uuids of the caller's attachments (`POST /attachment`) that support the dispute."""
    amount: PositiveAmount | None = Field(
        default=None, description="default: the captured amount less refunds and credits"
    )


class ResolveDisputeRequest(StrictRequest):
    outcome: Literal["won", "lost"]
    """`won`: the disputed amount is credited back to the card; `lost`: nothing moves."""
