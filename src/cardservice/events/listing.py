"""Reading the event stream: the caller's events (and, for a team owner, the members'),
numbered ones only, oldest first after a cursor."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import orjson

from cardservice.auth.credentials import Principal
from cardservice.errors import NotFound
from cardservice.sql import Reader, Row, iso_z, text_uuid

EVENT_COLUMNS = "e.sequence, e.uuid, e.type, e.created_at, e.data"


class EventNotFound(NotFound):
    message = "Event not found."


def visible_to(caller: Principal, start: int) -> tuple[str, list[Any]]:
    """The condition on `e.user_uuid` for events the caller may read, with its arguments
    numbered from `$start`: its own, and a team owner's members'."""
    if caller.is_team_owner:
        clause = (
            f"(e.user_uuid = ${start} OR e.user_uuid IN "  # noqa: S608 - placeholders only
            f"(SELECT m.uuid FROM users m WHERE m.team_uuid = ${start + 1}))"
        )
        return clause, [caller.user_uuid, caller.team_uuid]
    return f"e.user_uuid = ${start}", [caller.user_uuid]


def event_record(row: Row) -> dict[str, Any]:
    """A row of EVENT_COLUMNS → the event as served and delivered; `data` as stored."""
    return {
        "uuid": text_uuid(row["uuid"]),
        "sequence": row["sequence"],
        "type": row["type"],
        "created_at": iso_z(row["created_at"]),
        "data": orjson.Fragment(row["data"]),
    }


async def list_events(
    reader: Reader, caller: Principal, after: int, limit: int, event_type: str | None
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Up to `limit` visible events numbered after `after`, in `sequence` order, and the
    page's meta `{next_after, has_more}`."""
    visible, args = visible_to(caller, 3)
    where = f"e.sequence > $1 AND {visible}"
    if event_type is not None:
        args.append(event_type)
        where += f" AND e.type = ${len(args) + 2}"
    rows = await reader.rows(
        f"SELECT {EVENT_COLUMNS} FROM events e WHERE {where} "  # noqa: S608 - our fragments
        "ORDER BY e.sequence LIMIT $2",
        after,
        limit + 1,
        *args,
    )
    page = [event_record(row) for row in rows[:limit]]
    next_after = page[-1]["sequence"] if page else after
    return page, {"next_after": next_after, "has_more": len(rows) > limit}


async def one_event(reader: Reader, caller: Principal, event_uuid: UUID) -> dict[str, Any]:
    """A numbered event the caller may read; 404 otherwise."""
    visible, args = visible_to(caller, 2)
    row = await reader.row(
        f"SELECT {EVENT_COLUMNS} FROM events e "  # noqa: S608 - our fragments
        f"WHERE e.uuid = $1 AND e.sequence IS NOT NULL AND {visible}",
        event_uuid,
        *args,
    )
    if row is None:
        raise EventNotFound()
    return event_record(row)
