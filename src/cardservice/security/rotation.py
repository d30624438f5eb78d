"""`cardservice keys rotate`: every stored secret re-encrypted under the newest key.

Rows are walked in uuid order, a batch per write unit, so the work can stop and resume at
any point (a row already under the newest key is skipped) and no unit holds many rows.
Servers keep running meanwhile: they read both keys, and write with the newest.
Fingerprints are untouched: their key is separate and stable (`cardservice.security`).
The statements are in `security/repository.py`.
"""

from __future__ import annotations

import uuid
from functools import partial

from cardservice.db.database import Database
from cardservice.db.sql import Tx, as_uuid
from cardservice.observability.progress import Report
from cardservice.security import CardCipher, repository
from cardservice.security.repository import ENCRYPTED_COLUMNS

BATCH_SIZE = 500


async def rotate_keys(
    db: Database, cipher: CardCipher, progress: Report, batch_size: int = BATCH_SIZE
) -> int:
    """Re-encrypt every card number and 3DS code not yet under the newest key; returns how
    many were re-encrypted."""
    changed = 0
    for table, column in ENCRYPTED_COLUMNS:
        total = await repository.count_rows(db.reader, table, column)
        walked, after = 0, uuid.UUID(int=0)
        while True:
            batch = partial(
                _rotate_batch,
                cipher=cipher,
                table=table,
                column=column,
                after=after,
                size=batch_size,
            )
            last, scanned, rewritten = await db.transact(batch)
            if last is None:
                break
            walked, changed, after = walked + scanned, changed + rewritten, last
            progress(table, walked, total)
    return changed


async def _rotate_batch(
    tx: Tx, cipher: CardCipher, table: str, column: str, after: uuid.UUID, size: int
) -> tuple[uuid.UUID | None, int, int]:
    """The next `size` rows after `after`: (the last uuid or None at the end, rows, rewritten)."""
    rows = await repository.ciphertexts_after(tx, table, column, after, size)
    rewritten = 0
    for row in rows:
        fresh = cipher.reencrypt(bytes(row[column]))
        if fresh is not None:
            row_uuid = as_uuid(row["uuid"])
            assert row_uuid is not None
            await repository.set_ciphertext(tx, table, column, row_uuid, fresh)
            rewritten += 1
    return (as_uuid(rows[-1]["uuid"]) if rows else None), len(rows), rewritten
