"""The outbox: database triggers insert an event beside every change (migration
20261123_15); here the unit of work completes them and a sequencer numbers them.

* `complete_events(tx)` runs at the end of every write unit (`db.Database.transact`),
  before the commit: it fills `data` of the unit's pending events with the API
  record of the object as it is now (one statement reads the pending events with their
  objects' columns, one more writes the data). No code path has to remember it; on
  PostgreSQL a deferred trigger refuses to commit an event left without data.
* `sequence_events(tx)` gives committed events their `sequence`, in commit order. An
  identity column is drawn at insert, not at commit: unit A can insert event 1, unit B
  event 2, B commit first, and a reader that walked past 2 would never see 1. Filtering on
  `pg_snapshot_xmin` alone does not close that gap (B may hold an older xid than A).
  So numbering happens after the fact, one sequencer at a time (an advisory lock on
  PostgreSQL, the writer's turn on SQLite), over events already committed: a number is
  only ever given to a committed event, and every number given later is larger.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardservice.attachments.service import attachment_record
from cardservice.cards.records import CARD_FIELDS, card_columns, card_record
from cardservice.db import add_commit_hook
from cardservice.disputes.records import DISPUTE_FIELDS, dispute_columns, dispute_record
from cardservice.encoding import dumps
from cardservice.sql import Row, Tx, in_list
from cardservice.transactions.records import (
    TRANSACTION_FIELDS,
    transaction_columns,
    transaction_record,
)
from cardservice.transactions.three_ds import code_record

BATCH = 500
SEQUENCER_LOCK = 15_001  # pg_advisory_xact_lock key: one sequencer at a time

_SET_DATA_PG = """
UPDATE events SET data = v.data
FROM unnest(CAST($1 AS bigint[]), CAST($2 AS text[])) AS v(id, data) WHERE events.id = v.id"""
_SET_DATA_ONE = "UPDATE events SET data = $2 WHERE id = $1"
_FORGET = "DELETE FROM events WHERE id IN "


@dataclass(frozen=True, slots=True)
class _Source:
    """Where the records of one object type come from: its table (as `alias`) joined to its
    pending events, the select list `columns` (the object's uuid first), and the builder of
    its record from those values."""

    object_type: str
    table: str
    alias: str
    columns: str
    width: int
    build: Callable[[Sequence[Any]], dict[str, Any]]
    also: str = ""  # a further join the columns need

    @property
    def join(self) -> str:
        a = self.alias
        on = f"e.object_type = '{self.object_type}' AND {a}.uuid = e.object_uuid"
        return f"LEFT JOIN {self.table} {a} ON {on} {self.also}"


def _named(names: tuple[str, ...], build: Callable[[dict[str, Any]], Any]) -> Callable[..., Any]:
    """A builder that reads columns by name, fed the values of `names` in that order."""
    return lambda values: build(dict(zip(names, values, strict=True)))


def _attachment(row: dict[str, Any]) -> dict[str, Any]:
    return attachment_record(row).model_dump()


_THREE_DS_NAMES = ("uuid", "card_uuid", "bin", "last4", "merchant_name", "amount", "currency",
                   "created_at", "expires_at")  # fmt: skip
_ATTACHMENT_NAMES = ("uuid", "type", "mime_type", "size", "sha256", "created_at")
SOURCES = (
    _Source("card", "cards", "c", card_columns("c"), len(CARD_FIELDS), card_record),
    _Source("transaction", "transactions", "t", transaction_columns("t"),
            len(TRANSACTION_FIELDS), transaction_record),
    _Source("three_ds_code", "three_ds_codes", "d",
            "d.uuid, d.card_uuid, dc.bin, dc.last4, d.merchant_name, d.amount, d.currency,"
            " d.created_at, d.expires_at",
            len(_THREE_DS_NAMES), _named(_THREE_DS_NAMES, code_record),
            also="LEFT JOIN cards dc ON dc.uuid = d.card_uuid"),
    _Source("attachment", "attachments", "a",
            ", ".join(f"a.{name}" for name in _ATTACHMENT_NAMES),
            len(_ATTACHMENT_NAMES), _named(_ATTACHMENT_NAMES, _attachment)),
    _Source("dispute", "disputes", "p", dispute_columns("p"), len(DISPUTE_FIELDS),
            dispute_record),
)  # fmt: skip
# The unit's pending events, each with its object's columns, in one statement: every source
# contributes its columns (NULL unless the event is of its type and its object still exists).
_PENDING = (
    "SELECT e.id, e.object_type, "  # noqa: S608 - our fragments
    + ", ".join(source.columns for source in SOURCES)
    + " FROM events e "
    + " ".join(source.join for source in SOURCES)
    + " WHERE e.data IS NULL ORDER BY e.id"
)


def _offsets() -> dict[str, tuple[int, _Source]]:
    """Object type → (its first column in a `_PENDING` row, its source)."""
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


async def _set_data(tx: Tx, ids: list[int], data: list[str]) -> None:
    if tx.dialect == "sqlite":
        for event_id, text in zip(ids, data, strict=True):
            await tx.execute(_SET_DATA_ONE, event_id, text)
    else:
        await tx.execute(_SET_DATA_PG, ids, data)


async def complete_events(tx: Tx) -> None:
    """Fill `data` of this unit's pending events with their object's record as it is now
    (several changes of one object in a unit: each event carries the final state). One
    statement reads them with their objects; one more writes the data."""
    pending = await tx.rows(_PENDING)
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
        chunk = gone[start : start + BATCH]
        await tx.execute(_FORGET + in_list(len(chunk)), *chunk)
    for start in range(0, len(ids), BATCH):
        await _set_data(tx, ids[start : start + BATCH], data[start : start + BATCH])


_UNSEQUENCED = """
SELECT id FROM events WHERE sequence IS NULL AND data IS NOT NULL ORDER BY id LIMIT $1"""
_LAST_SEQUENCE = "SELECT COALESCE(MAX(sequence), 0) FROM events"
_NUMBER_PG = """
UPDATE events SET sequence = $1 + v.n
FROM unnest(CAST($2 AS bigint[])) WITH ORDINALITY AS v(id, n) WHERE events.id = v.id"""
_NUMBER_ONE = "UPDATE events SET sequence = $2 WHERE id = $1"


async def sequence_events(tx: Tx, limit: int = BATCH) -> list[int]:
    """Number up to `limit` committed, unnumbered events after the last number given, in
    insertion order; their ids. Commit the unit before the next call (the lock is the
    unit's: numbers become visible in order)."""
    if tx.dialect != "sqlite":
        await tx.execute("SELECT pg_advisory_xact_lock($1)", SEQUENCER_LOCK)
    ids = [int(row["id"]) for row in await tx.rows(_UNSEQUENCED, limit)]
    if not ids:
        return ids
    last = int(await tx.value(_LAST_SEQUENCE))
    if tx.dialect == "sqlite":
        for n, event_id in enumerate(ids, 1):
            await tx.execute(_NUMBER_ONE, event_id, last + n)
    else:
        await tx.execute(_NUMBER_PG, last, ids)
    return ids


def register() -> None:
    """Fill this process's events at the end of every write unit (db.add_commit_hook): each
    entry that opens a Database calls it at start-up (create_app, the CLI, the benches)."""
    add_commit_hook(complete_events)
