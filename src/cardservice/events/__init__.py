"""Events: the outbox the database writes beside every change, the operator's own events,
and `GET /events`."""

from __future__ import annotations

from cardservice.events.program import record_operator_event
from cardservice.events.schemas import (
    EVENT_TYPES,
    OPERATOR_EVENT_TYPES,
    EventRecord,
    EventsEnvelope,
    EventType,
    OperatorEventType,
    ProgramEventType,
    Queued,
)

__all__ = [
    "EVENT_TYPES",
    "OPERATOR_EVENT_TYPES",
    "EventRecord",
    "EventType",
    "EventsEnvelope",
    "OperatorEventType",
    "ProgramEventType",
    "Queued",
    "record_operator_event",
]
