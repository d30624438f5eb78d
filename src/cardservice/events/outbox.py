"""The outbox: database triggers insert an event beside every change (migration
20261123_15); here the unit of work completes them and a sequencer numbers them.

* `complete_events(tx)` runs at the end of every write unit (`db.Database.transact`),
  before the commit: it fills `data` of the unit's pending events with the API
  record of the object as it is now (one statement reads the pending events with their
  objects' columns, one more writes the data: on PostgreSQL it goes with the unit's COMMIT,
  in the same round trip, `Tx.at_commit`). No code path has to remember it; on PostgreSQL a
  deferred trigger refuses to commit an event left without data.
* `sequence_events(tx)` gives committed events their `sequence`, in commit order. An
  identity column is drawn at insert, not at commit: unit A can insert event 1, unit B
  event 2, B commit first, and a reader that walked past 2 would never see 1. Filtering on
  `pg_snapshot_xmin` alone does not close that gap (B may hold an older xid than A).
  So numbering happens after the fact, one sequencer at a time (an advisory lock on
  PostgreSQL, the writer's turn on SQLite), over events already committed: a number is
  only ever given to a committed event, and every number given later is larger.

The statements are in repository.py; where each kind of object's data comes from, in
records.py (`SOURCES`: a new kind of object with events adds its source there).
"""

from __future__ import annotations

from collections.abc import Sequence

from cardservice.db.database import NumberedHook
from cardservice.db.sql import Row, Tx
from cardservice.encoding import dumps
from cardservice.events import repository
from cardservice.events.records import SOURCES, Source

BATCH = 500


def _offsets() -> dict[str, tuple[int, Source]]:
    """Object type → (its first column in a pending row, its source)."""
    found, at = {}, 2  # after e.id, e.object_type
    for source in SOURCES:
        found[source.object_type] = (at, source)
        at += source.width
    return found


_OFFSETS = _offsets()


def _record(row: Row) -> bytes | None:
    """The event's data: its object's record as JSON, or None when the object is gone."""
    start, source = _OFFSETS[row[1]]
    values = tuple(row)[start : start + source.width]
    if values[0] is None:
        return None
    return dumps(source.build(values))


async def complete_events(tx: Tx) -> None:
    """Fill `data` of this unit's pending events with their object's record as it is now
    (several changes of one object in a unit: each event carries the final state). One
    statement reads them with their objects; one more writes the data (PostgreSQL: with the
    COMMIT, `repository.set_data`)."""
    pending = await repository.pending_events(tx)
    if not pending:
        return
    ids: list[int] = []
    data: list[str] = []
    gone: list[int] = []
    for row in pending:
        record = _record(row)
        if record is None:  # the unit removed what it made: no change is left to tell
            gone.append(int(row[0]))
        else:
            ids.append(int(row[0]))
            data.append(record.decode())
    for start in range(0, len(gone), BATCH):
        await repository.forget_events(tx, gone[start : start + BATCH])
    for start in range(0, len(ids), BATCH):
        await repository.set_data(tx, ids[start : start + BATCH], data[start : start + BATCH])


async def sequence_events(
    tx: Tx, limit: int = BATCH, hooks: Sequence[NumberedHook] = ()
) -> list[int]:
    """Number up to `limit` committed, unnumbered events after the last number given, in
    insertion order; their ids. Commit the unit before the next call (the lock is the
    unit's: numbers become visible in order)."""
    await repository.take_sequencer(tx)
    ids = await repository.unsequenced(tx, limit)
    if ids:
        await repository.number_events(tx, ids)
        for hook in hooks:  # the database's (runtime.database): the mail queue's
            await hook(tx, ids)
    return ids
