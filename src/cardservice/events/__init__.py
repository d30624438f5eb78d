"""Events: the outbox the database writes beside every change, the operator's own events,
and `GET /events`."""

from __future__ import annotations

from cardservice.events.listing import EventNotFound, own_event_id
from cardservice.events.outbox import BATCH, complete_events, sequence_events
from cardservice.events.program import record_operator_event
from cardservice.events.records import EVENT_COLUMNS, event_record
from cardservice.events.repository import any_unsequenced, events_by_id, visible_to
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
    "BATCH",
    "EVENT_COLUMNS",
    "EVENT_TYPES",
    "OPERATOR_EVENT_TYPES",
    "EventNotFound",
    "EventRecord",
    "EventType",
    "EventsEnvelope",
    "OperatorEventType",
    "ProgramEventType",
    "Queued",
    "any_unsequenced",
    "complete_events",
    "event_record",
    "events_by_id",
    "own_event_id",
    "record_operator_event",
    "sequence_events",
    "visible_to",
]
