"""`cardservice keys rotate`: every stored secret re-encrypted under the newest key.

Rows are walked in uuid order, a batch per write unit, so the work can stop and resume at
any point (a row already under the newest key is skipped) and no unit holds many rows.
Servers keep running meanwhile: they read both keys, and write with the newest.
Fingerprints are untouched: their key is separate and stable (`cardservice.security`).
"""

from __future__ import annotations

import uuid
from functools import partial

from cardservice.db import Database
from cardservice.progress import Report
from cardservice.security import CardCipher
from cardservice.sql import Tx, as_uuid

ENCRYPTED_COLUMNS = (("cards", "pan_ciphertext"), ("three_ds_codes", "code_ciphertext"))
BATCH_SIZE = 500


async def rotate_keys(
    db: Database, cipher: CardCipher, progress: Report, batch_size: int = BATCH_SIZE
) -> int:
    """Re-encrypt every card number and 3DS code not yet under the newest key; returns how
    many were re-encrypted."""
    changed = 0
    for table, column in ENCRYPTED_COLUMNS:
        total = int(await db.reader.value(f"SELECT count(*) FROM {table}"))  # noqa: S608
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
    rows = await tx.rows(
        f"SELECT uuid, {column} FROM {table} WHERE uuid > $1 ORDER BY uuid LIMIT $2",  # noqa: S608
        after,
        size,
    )
    rewritten = 0
    for row in rows:
        fresh = cipher.reencrypt(bytes(row[column]))
        if fresh is not None:
            await tx.execute(
                f"UPDATE {table} SET {column} = $1 WHERE uuid = $2",  # noqa: S608
                fresh,
                as_uuid(row["uuid"]),
            )
            rewritten += 1
    return (as_uuid(rows[-1]["uuid"]) if rows else None), len(rows), rewritten
