"""Reading the event stream: the caller's events (and, for a team owner, the members'),
numbered ones only, oldest first after a cursor (the statements are in repository.py)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from cardservice.auth import Principal
from cardservice.db.sql import Reader, Tx
from cardservice.errors import NotFound
from cardservice.events import repository
from cardservice.events.records import event_record


class EventNotFound(NotFound):
    message = "Event not found."


async def list_events(
    reader: Reader, caller: Principal, after: int, limit: int, event_type: str | None
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Up to `limit` visible events numbered after `after`, in `sequence` order, and the
    page's meta `{next_after, has_more}`."""
    rows, more = await repository.events_after(reader, caller, after, limit, event_type)
    page = [event_record(row) for row in rows]
    next_after = page[-1]["sequence"] if page else after
    return page, {"next_after": next_after, "has_more": more}


async def one_event(reader: Reader, caller: Principal, event_uuid: UUID) -> dict[str, Any]:
    """A numbered event the caller may read; 404 otherwise."""
    row = await repository.visible_event(reader, caller, event_uuid)
    if row is None:
        raise EventNotFound()
    return event_record(row)


async def own_event_id(tx: Tx, user_uuid: UUID, event_uuid: UUID) -> int:
    """The id of a numbered event of the user's own (a team owner reads the members' events
    but cannot act on them); 404 otherwise."""
    event_id = await repository.own_event_id(tx, user_uuid, event_uuid)
    if event_id is None:
        raise EventNotFound()
    return event_id
