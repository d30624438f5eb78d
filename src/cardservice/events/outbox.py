"""The outbox: database triggers insert an event beside every change (migration
20261123_15); here the unit of work completes them and a sequencer numbers them.

* `complete_events(tx)` runs at the end of every write unit (`db.Database.transaction`),
  before the commit: it fills `data` of the unit's pending events with the API
  record of the object as it is now. No code path has to remember it; on PostgreSQL a
  deferred trigger refuses to commit an event left without data.
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
from typing import Any
from uuid import UUID

from cardservice.attachments.service import attachment_record
from cardservice.cards.records import card_columns, card_record
from cardservice.disputes.records import dispute_columns, dispute_record
from cardservice.sql import Row, Tx, as_uuid, in_list, text_uuid
from cardservice.transactions.records import transaction_columns, transaction_record
from cardservice.transactions.three_ds import code_record
from cardservice.web import dumps

BATCH = 500
SEQUENCER_LOCK = 15_001  # pg_advisory_xact_lock key: one sequencer at a time

_PENDING = "SELECT id, object_type, object_uuid FROM events WHERE data IS NULL ORDER BY id"
_CARDS = f"SELECT {card_columns('c')} FROM cards c WHERE c.uuid IN "  # noqa: S608
_TRANSACTIONS = f"SELECT {transaction_columns('t')} FROM transactions t WHERE t.uuid IN "  # noqa: S608
_THREE_DS = """
SELECT d.uuid, d.card_uuid, c.bin, c.last4, d.merchant_name, d.amount, d.currency,
       d.created_at, d.expires_at
FROM three_ds_codes d JOIN cards c ON c.uuid = d.card_uuid WHERE d.uuid IN """
_ATTACHMENTS = (
    "SELECT uuid, type, mime_type, size, sha256, created_at FROM attachments WHERE uuid IN "
)
_DISPUTES = f"SELECT {dispute_columns('d')} FROM disputes d WHERE d.uuid IN "  # noqa: S608
_SET_DATA_PG = """
UPDATE events SET data = v.data
FROM unnest(CAST($1 AS bigint[]), CAST($2 AS text[])) AS v(id, data) WHERE events.id = v.id"""
_SET_DATA_ONE = "UPDATE events SET data = $2 WHERE id = $1"
_FORGET = "DELETE FROM events WHERE id IN "


def _attachment(row: Row) -> dict[str, Any]:
    return attachment_record(row).model_dump()


# object type → (the query of its records by uuid, the record builder)
RECORDS: dict[str, tuple[str, Callable[[Row], dict[str, Any]]]] = {
    "card": (_CARDS, card_record),
    "transaction": (_TRANSACTIONS, transaction_record),
    "three_ds_code": (_THREE_DS, code_record),
    "attachment": (_ATTACHMENTS, _attachment),
    "dispute": (_DISPUTES, dispute_record),
}


async def _records(tx: Tx, object_type: str, uuids: Sequence[UUID]) -> dict[str, bytes]:
    """The API records of these objects as JSON, by uuid text."""
    sql, build = RECORDS[object_type]
    rows = await tx.rows(sql + in_list(len(uuids)), *uuids)
    return {str(record["uuid"]): dumps(record) for record in map(build, rows)}


async def _set_data(tx: Tx, ids: list[int], data: list[str]) -> None:
    if tx.dialect == "sqlite":
        for event_id, text in zip(ids, data, strict=True):
            await tx.execute(_SET_DATA_ONE, event_id, text)
    else:
        await tx.execute(_SET_DATA_PG, ids, data)


async def complete_events(tx: Tx) -> None:
    """Fill `data` of this unit's pending events with their object's record as it is now
    (several changes of one object in a unit: each event carries the final state)."""
    pending = await tx.rows(_PENDING)
    for start in range(0, len(pending), BATCH):
        batch = pending[start : start + BATCH]
        wanted: dict[str, set[UUID]] = {}
        for row in batch:
            wanted.setdefault(row["object_type"], set()).add(_uuid(row["object_uuid"]))
        found: dict[str, bytes] = {}
        for object_type, uuids in wanted.items():
            found.update(await _records(tx, object_type, sorted(uuids)))
        done = [row for row in batch if str(_uuid(row["object_uuid"])) in found]
        gone = [int(row["id"]) for row in batch if str(_uuid(row["object_uuid"])) not in found]
        if gone:  # the unit removed what it made: no change is left to tell
            await tx.execute(_FORGET + in_list(len(gone)), *gone)
        ids = [int(row["id"]) for row in done]
        data = [found[str(_uuid(row["object_uuid"]))].decode() for row in done]
        await _set_data(tx, ids, data)


def _uuid(value: Any) -> UUID:
    found = as_uuid(text_uuid(value))
    assert found is not None
    return found


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
