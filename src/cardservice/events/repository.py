"""The statements of the events table: the outbox's (pending events with their objects'
columns, their data, the sequencer's numbering) and the reads of the numbered stream."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from cardservice.auth import Principal, readable_by
from cardservice.db.paging import Keyset, paginate
from cardservice.db.sql import (
    Insert,
    Reader,
    Row,
    Tx,
    in_list,
    pg_literal,
    take_turn,
    write_insert,
)
from cardservice.events.records import EVENT_COLUMNS, SOURCES, Source
from cardservice.models import Event
from cardservice.models.base import table_of
from cardservice.models.event import WRITTEN_EVENT_COLUMNS, written_event

_TABLE = table_of(Event).name
SEQUENCER_LOCK = 15_001  # pg_advisory_xact_lock key: one sequencer at a time


def visible_to(caller: Principal, start: int) -> tuple[str, list[Any]]:
    """The condition on `e.user_uuid` for events the caller may read, with its arguments
    numbered from `$start`: its own, and a team owner's members' (`readable_by`)."""
    return readable_by("e.user_uuid", start, caller.user_uuid, caller.owned_team)


async def events_after(
    reader: Reader, caller: Principal, after: int, limit: int, event_type: str | None
) -> tuple[Sequence[Row], bool]:
    """Up to `limit` events the caller may read numbered after `after`, in `sequence` order
    (EVENT_COLUMNS), and whether more follow."""
    where, args = visible_to(caller, 1)
    if event_type is not None:
        args.append(event_type)
        where += f" AND e.type = ${len(args)}"
    statement = f"SELECT {EVENT_COLUMNS} FROM events e WHERE {where}$AFTER ORDER BY e.sequence"  # noqa: S608
    return await paginate(reader, statement, args, Keyset(limit, "e.sequence", (after,)))


async def visible_event(reader: Reader, caller: Principal, event_uuid: uuid.UUID) -> Row | None:
    """A numbered event the caller may read (EVENT_COLUMNS), or None."""
    visible, args = visible_to(caller, 2)
    return await reader.row(
        f"SELECT {EVENT_COLUMNS} FROM events e "  # noqa: S608 - our fragments
        f"WHERE e.uuid = $1 AND e.sequence IS NOT NULL AND {visible}",
        event_uuid,
        *args,
    )


_OWN_EVENT = "SELECT id FROM events WHERE uuid = $1 AND sequence IS NOT NULL AND user_uuid = $2"


async def own_event_id(tx: Tx, user_uuid: uuid.UUID, event_uuid: uuid.UUID) -> int | None:
    """The id of a numbered event of the user's own, or None."""
    found = await tx.value(_OWN_EVENT, event_uuid, user_uuid)
    return None if found is None else int(found)


_EVENTS = "SELECT id, type, user_uuid FROM events WHERE id IN "


async def events_by_id(tx: Tx, event_ids: Sequence[int]) -> Sequence[Row]:
    """The events (id, type, user_uuid) with these ids."""
    return await tx.rows(_EVENTS + in_list(len(event_ids)), *event_ids)


def _join(source: Source) -> str:
    a = source.alias
    on = f"e.object_type = '{source.object_type}' AND {a}.uuid = e.object_uuid"
    return f"LEFT JOIN {source.table} {a} ON {on} {source.also}"


# The unit's pending events, each with its object's columns, in one statement: every source
# contributes its columns (NULL unless the event is of its type and its object still exists).
_PENDING = (
    "SELECT e.id, e.object_type, "  # noqa: S608 - our fragments
    + ", ".join(source.columns for source in SOURCES)
    + " FROM events e "
    + " ".join(_join(source) for source in SOURCES)
    + " WHERE e.data IS NULL ORDER BY e.id"
)
_SET_DATA_PG = (
    "UPDATE events SET data = v.data FROM (VALUES {}) AS v(id, data) WHERE events.id = v.id"
)
_SET_DATA_ONE = "UPDATE events SET data = $2 WHERE id = $1"
_FORGET = "DELETE FROM events WHERE id IN "


async def pending_events(tx: Tx) -> Sequence[Row]:
    """The unit's events without data: id, object_type, then every source's columns in
    `SOURCES` order (the event's own object's filled in, if it still exists)."""
    return await tx.rows(_PENDING)


async def forget_events(tx: Tx, event_ids: Sequence[int]) -> None:
    await tx.execute(_FORGET + in_list(len(event_ids)), *event_ids)


async def set_data(tx: Tx, event_ids: list[int], data: list[str]) -> None:
    """Each event's data (JSON text). PostgreSQL: one statement, sent with the unit's COMMIT
    (no round trip of its own; its values written in, `pg_literal`);
    SQLite: a statement per event, at once (in process)."""
    if tx.dialect == "sqlite":
        for event_id, text in zip(event_ids, data, strict=True):
            await tx.execute(_SET_DATA_ONE, event_id, text)
    else:
        values = ", ".join(
            f"({pg_literal(int(event_id))}, {pg_literal(text)})"
            for event_id, text in zip(event_ids, data, strict=True)
        )
        tx.at_commit.append(_SET_DATA_PG.format(values))


# `ORDER BY id`: the partial index `ix_events_unsequenced` is then the plan whatever the
# statistics say. Without it, statistics taken while many events waited for their numbers
# (a bulk load, a backlog; autovacuum off or not yet run) make PostgreSQL scan the whole
# table for the first match, and each poll of the delivery loop read every event. EXPLAIN
# ANALYZE over 1,000,000 events numbered after the last ANALYZE: 470 ms an empty poll
# without it, 13-27 ms with it (the index's entries of the numbered rows not vacuumed yet),
# 0.03 ms either way once vacuumed. Two workers polling so kept PostgreSQL's CPU busy and
# halved `bench.run`'s read by uuid
# (docs/performance.md#the-delivery-loops-probe-for-unnumbered-events).
_ANY_UNSEQUENCED = (
    "SELECT 1 FROM events WHERE sequence IS NULL AND data IS NOT NULL ORDER BY id LIMIT 1"
)
_UNSEQUENCED = """
SELECT id FROM events WHERE sequence IS NULL AND data IS NOT NULL ORDER BY id LIMIT $1"""
_LAST_SEQUENCE = "SELECT COALESCE(MAX(sequence), 0) FROM events"
_NUMBER_PG = """
UPDATE events SET sequence = $1 + v.n
FROM unnest(CAST($2 AS bigint[])) WITH ORDINALITY AS v(id, n) WHERE events.id = v.id"""
_NUMBER_ONE = "UPDATE events SET sequence = $2 WHERE id = $1"


async def any_unsequenced(reader: Reader) -> bool:
    """Whether a committed event waits for its number."""
    return await reader.value(_ANY_UNSEQUENCED) is not None


async def take_sequencer(tx: Tx) -> None:
    """The sequencer's turn, until the unit ends (SQLite: the writer's turn is one already)."""
    await take_turn(tx, SEQUENCER_LOCK)


async def unsequenced(tx: Tx, limit: int) -> list[int]:
    """Up to `limit` ids of events with data and no number, in insertion order."""
    return [int(row["id"]) for row in await tx.rows(_UNSEQUENCED, limit)]


async def number_events(tx: Tx, event_ids: list[int]) -> None:
    """Number the events after the last number given, in the order of `event_ids`."""
    last = int(await tx.value(_LAST_SEQUENCE))
    if tx.dialect == "sqlite":
        for n, event_id in enumerate(event_ids, 1):
            await tx.execute(_NUMBER_ONE, event_id, last + n)
    else:
        await tx.execute(_NUMBER_PG, last, event_ids)


# The operator's own events (events/program.py): no owner, the data written with the row.
async def insert_operator_event(
    tx: Tx,
    type_: str,
    object_type: str,
    object_uuid: uuid.UUID | None,
    data: str,
    now: datetime,
) -> uuid.UUID:
    """One event with no owner and its data (JSON text), in the caller's unit; its uuid."""
    row = written_event(type_, None, object_type, object_uuid, now, data)
    await write_insert(tx, Insert(_TABLE, WRITTEN_EVENT_COLUMNS, [row]))
    return uuid.UUID(str(row["uuid"]))
