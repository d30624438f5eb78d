"""`cardservice keys check` (and `cardservice doctor`): every value of every encrypted
column (`ENCRYPTED_COLUMNS`) read back under the configured keys; a value with a
fingerprint must also match it (a number that decrypts to something else would not)."""

from __future__ import annotations

import uuid

from cardservice.db.sql import Reader, as_uuid
from cardservice.security import CardCipher, UnreadableValue, repository
from cardservice.security.repository import ENCRYPTED_COLUMNS, EncryptedColumn

BATCH_SIZE = 1000


async def read_every_value(
    reader: Reader, cipher: CardCipher, batch_size: int = BATCH_SIZE
) -> dict[str, int]:
    """How many values of each kind were read; `UnreadableValue` names the first that
    cannot be (its kind and row), in the order of `ENCRYPTED_COLUMNS`, then of its key."""
    return {
        column.kind: await _read_column(reader, cipher, column, batch_size)
        for column in ENCRYPTED_COLUMNS
    }


async def _read_column(
    reader: Reader, cipher: CardCipher, column: EncryptedColumn, batch_size: int
) -> int:
    read, after = 0, uuid.UUID(int=0)
    while rows := await repository.values_after(reader, column, after, batch_size):
        for row in rows:
            after = as_uuid(row["id"]) or after
            try:
                plain = cipher.decrypt(bytes(row["value"]))
            except ValueError as exc:
                raise UnreadableValue(column.kind, after) from exc
            if column.fingerprint and cipher.fingerprint(plain) != row["fingerprint"]:
                raise UnreadableValue(column.kind, after, "does not match its fingerprint")
            read += 1
    return read
