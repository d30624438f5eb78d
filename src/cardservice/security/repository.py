"""The statements over every encrypted column (`ENCRYPTED_COLUMNS`), for `cardservice keys
rotate` (rotation.py): each table walked in uuid order, a batch at a time. The columns
belong to cards, 3DS codes and wallet tokens; they are walked here, with the cipher whose
keys encrypt them, so a new encrypted column is named in one place."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from cardservice.db.sql import Reader, Row, Tx

ENCRYPTED_COLUMNS = (
    ("cards", "pan_ciphertext"),
    ("three_ds_codes", "code_ciphertext"),
    # wallet tokens' device PANs (docs/network.md#wallet-tokens)
    ("card_tokens", "dpan_ciphertext"),
)


def _known(table: str, column: str) -> None:
    if (table, column) not in ENCRYPTED_COLUMNS:  # the names below are never a caller's text
        raise ValueError(f"{table}.{column} is not an encrypted column")


async def count_rows(reader: Reader, table: str, column: str) -> int:
    _known(table, column)
    return int(await reader.value(f"SELECT count(*) FROM {table}"))  # noqa: S608


async def ciphertexts_after(
    tx: Tx, table: str, column: str, after: uuid.UUID, size: int
) -> Sequence[Row]:
    """The next `size` rows after `after` in uuid order: (uuid, the column)."""
    _known(table, column)
    return await tx.rows(
        f"SELECT uuid, {column} FROM {table} WHERE uuid > $1 ORDER BY uuid LIMIT $2",  # noqa: S608
        after,
        size,
    )


async def set_ciphertext(
    tx: Tx, table: str, column: str, row_uuid: uuid.UUID, ciphertext: bytes
) -> None:
    _known(table, column)
    await tx.execute(f"UPDATE {table} SET {column} = $1 WHERE uuid = $2", ciphertext, row_uuid)  # noqa: S608
