"""Every column the card-data key encrypts (`ENCRYPTED_COLUMNS`) and the statements over
them: `cardservice keys rotate` (rotation.py) and `cardservice keys check` (check.py) walk
this one list, so a new encrypted column is named here once and both cover it
(`tests/security/test_encrypted_columns.py` fails while a table declares an encrypted column
that is not listed). Each column is walked in the order of its row's key, a batch at a time.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from cardservice.db.sql import Reader, Row, Tx


@dataclass(frozen=True, slots=True)
class EncryptedColumn:
    """One encrypted column: `kind` names it in `keys check`'s answer, the progress bars
    and the audit row; `key` is its row's unique uuid; `fingerprint`, when set, is the
    column holding the value's keyed fingerprint (`keys check` compares it)."""

    kind: str
    table: str
    column: str
    key: str = "uuid"
    fingerprint: str | None = None


ENCRYPTED_COLUMNS = (
    EncryptedColumn("card", "cards", "pan_ciphertext", fingerprint="pan_fingerprint"),
    EncryptedColumn("three_ds_code", "three_ds_codes", "code_ciphertext"),
    EncryptedColumn(
        "wallet_token", "card_tokens", "dpan_ciphertext", fingerprint="dpan_fingerprint"
    ),
    EncryptedColumn("webhook_endpoint", "webhook_endpoints", "secret_ciphertext"),
    EncryptedColumn(
        "webhook_endpoint_previous_secret", "webhook_endpoints", "previous_secret_ciphertext"
    ),
    EncryptedColumn(
        "decision_endpoint", "authorization_endpoints", "secret_ciphertext", key="user_uuid"
    ),
    # the issuer's outgoing clearing files: their chargebacks carry card numbers
    EncryptedColumn("clearing_outgoing_file", "clearing_outgoing", "content_ciphertext"),
)


def _known(column: EncryptedColumn) -> EncryptedColumn:
    if column not in ENCRYPTED_COLUMNS:  # the names below are never a caller's text
        raise ValueError(f"{column.table}.{column.column} is not an encrypted column")
    return column


async def count_values(reader: Reader, column: EncryptedColumn) -> int:
    """How many rows hold a value in the column."""
    c = _known(column)
    return int(
        await reader.value(f"SELECT count(*) FROM {c.table} WHERE {c.column} IS NOT NULL")  # noqa: S608
    )


async def values_after(
    db: Reader | Tx, column: EncryptedColumn, after: uuid.UUID, size: int
) -> Sequence[Row]:
    """The next `size` values after the key `after`, in key order: (`id`, `value`, and
    `fingerprint` when the column has one)."""
    c = _known(column)
    fingerprint = f", {c.fingerprint} AS fingerprint" if c.fingerprint else ""
    return await db.rows(
        f"SELECT {c.key} AS id, {c.column} AS value{fingerprint} FROM {c.table} "  # noqa: S608
        f"WHERE {c.key} > $1 AND {c.column} IS NOT NULL ORDER BY {c.key} LIMIT $2",
        after,
        size,
    )


async def value_of(tx: Tx, column: EncryptedColumn, row_id: uuid.UUID) -> bytes | None:
    """The column's value in one row now (None: no row, or no value)."""
    c = _known(column)
    found = await tx.value(f"SELECT {c.column} FROM {c.table} WHERE {c.key} = $1", row_id)  # noqa: S608
    return None if found is None else bytes(found)


async def swap_value(
    tx: Tx, column: EncryptedColumn, row_id: uuid.UUID, seen: bytes, fresh: bytes
) -> bool:
    """Write `fresh` where the row still holds `seen`: whether it did (a server that wrote
    the row meanwhile keeps its own value)."""
    c = _known(column)
    written = await tx.row(
        f"UPDATE {c.table} SET {c.column} = $1 WHERE {c.key} = $2 AND {c.column} = $3 "  # noqa: S608
        f"RETURNING {c.key}",
        fresh,
        row_id,
        seen,
    )
    return written is not None
