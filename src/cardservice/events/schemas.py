"""Event records (docs/events.md#events-and-webhooks)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, get_args
from uuid import UUID

from pydantic import BaseModel

EventType = Literal[
    "card.created",
    "card.updated",
    "card.details_revealed",
    "card.pin.updated",
    "card.token.created",
    "card.token.updated",
    "transaction.created",
    "transaction.updated",
    "three_ds.code_created",
    "attachment.created",
    "dispute.created",
    "dispute.updated",
    "team.request.created",
    "team.request.approved",
    "team.request.declined",
    "transaction.receipt_missing",
]
EVENT_TYPES: tuple[str, ...] = get_args(EventType)
# The operator's own events: they belong to no cardholder and reach only the program-wide
# endpoints (docs/events.md#the-operators-own-events).
OperatorEventType = Literal["clearing_file.ingested", "card_testing.locked"]
OPERATOR_EVENT_TYPES: tuple[str, ...] = get_args(OperatorEventType)
ProgramEventType = EventType | OperatorEventType  # what a program-wide endpoint may ask for


class EventRecord(BaseModel):
    uuid: UUID
    sequence: int
    type: EventType
    created_at: datetime
    data: dict[str, Any]


class EventsMeta(BaseModel):
    next_after: int
    has_more: bool


class EventsEnvelope(BaseModel):
    success: bool = True
    meta: EventsMeta
    data: list[EventRecord]


class Queued(BaseModel):
    queued: int
