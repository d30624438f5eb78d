"""`cardservice keys rotate`: every value of every encrypted column (`ENCRYPTED_COLUMNS`:
card numbers, 3DS codes, DPANs, webhook and decision-endpoint secrets) re-encrypted under
the newest key.

Rows are walked in key order, a batch per write unit, so the work can stop and resume at
any point (a value already under the newest key is skipped) and no unit holds many rows.
Servers keep running meanwhile: they read both keys and write with the newest. A value is
replaced only where the row still holds what was read (`swap_value`); a row a server wrote
meanwhile is read again and moved too if it needs it, so a concurrent write is never undone.
Fingerprints are untouched: their key is separate and stable (`cardservice.security`).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from functools import partial

from cardservice.db.database import Database
from cardservice.db.sql import Tx, as_uuid
from cardservice.observability.progress import Report
from cardservice.security import CardCipher, UnreadableValue, repository
from cardservice.security.repository import ENCRYPTED_COLUMNS, EncryptedColumn

BATCH_SIZE = 500


@dataclass(slots=True)
class Rotation:
    """What a rotation walked and re-encrypted, by kind of value (`EncryptedColumn.kind`)."""

    walked: dict[str, int] = field(default_factory=dict)
    rewritten: dict[str, int] = field(default_factory=dict)

    @property
    def changed(self) -> int:
        return sum(self.rewritten.values())


async def rotate_keys(
    db: Database, cipher: CardCipher, progress: Report, batch_size: int = BATCH_SIZE
) -> Rotation:
    """Re-encrypt every encrypted value not yet under the newest key. A value no configured
    key reads stops it (`UnreadableValue`, naming the value): what was moved stays moved."""
    done = Rotation()
    for column in ENCRYPTED_COLUMNS:
        total = await repository.count_values(db.reader, column)
        walked, rewritten, after = 0, 0, uuid.UUID(int=0)
        while True:
            batch = partial(
                _rotate_batch, cipher=cipher, column=column, after=after, size=batch_size
            )
            last, scanned, moved = await db.transact(batch)
            if last is None:
                break
            walked, rewritten, after = walked + scanned, rewritten + moved, last
            progress(column.kind, walked, total)
        done.walked[column.kind], done.rewritten[column.kind] = walked, rewritten
    return done


async def _rotate_batch(
    tx: Tx, cipher: CardCipher, column: EncryptedColumn, after: uuid.UUID, size: int
) -> tuple[uuid.UUID | None, int, int]:
    """The next `size` rows after `after`: (the last key or None at the end, rows, rewritten)."""
    rows = await repository.values_after(tx, column, after, size)
    rewritten = 0
    for row in rows:
        row_id = as_uuid(row["id"])
        assert row_id is not None
        rewritten += await _move(tx, cipher, column, row_id, bytes(row["value"]))
    return (as_uuid(rows[-1]["id"]) if rows else None), len(rows), rewritten


async def _move(
    tx: Tx, cipher: CardCipher, column: EncryptedColumn, row_id: uuid.UUID, seen: bytes | None
) -> int:
    """Put one row's value under the newest key: 1 if it was rewritten, 0 if it needed not
    (already there, or the row went). A value changed since it was read is read again."""
    while seen is not None:
        try:
            fresh = cipher.reencrypt(seen)
        except ValueError as exc:
            raise UnreadableValue(column.kind, row_id) from exc
        if fresh is None:
            return 0
        if await repository.swap_value(tx, column, row_id, seen, fresh):
            return 1
        seen = await repository.value_of(tx, column, row_id)
    return 0
