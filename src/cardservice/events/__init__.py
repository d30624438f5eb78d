"""Events: the outbox the database writes beside every change, and `GET /events`."""

from __future__ import annotations

from cardservice.events.schemas import EVENT_TYPES, EventRecord, EventsEnvelope, EventType, Queued

__all__ = ["EVENT_TYPES", "EventRecord", "EventType", "EventsEnvelope", "Queued"]
