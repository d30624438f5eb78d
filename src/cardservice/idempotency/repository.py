"""The statements of the idempotency_keys table (the remembered answers of
docs/api.md#buying-cards), and the savepoint a refused request's writes are undone to; the rules are
in `__init__.py`."""

from __future__ import annotations

import uuid
from datetime import datetime

from cardservice.db.sql import Reader, Row, Tx, insert_sql, row_args
from cardservice.models import IdempotencyKey
from cardservice.models.base import table_of

_COLUMNS = tuple(table_of(IdempotencyKey).columns.keys())
_INSERT = insert_sql(table_of(IdempotencyKey).name, _COLUMNS)
_LOOKUP = """
SELECT request_hash, status_code, response_body FROM idempotency_keys
WHERE user_uuid = $1 AND external_id = $2"""


async def stored_answer(source: Reader | Tx, user_uuid: uuid.UUID, external_id: str) -> Row | None:
    """The answer remembered for the user's external_id (request_hash, status_code,
    response_body), or None."""
    return await source.row(_LOOKUP, user_uuid, external_id)


async def store_answer(
    tx: Tx,
    user_uuid: uuid.UUID,
    external_id: str,
    request_hash: str,
    answer: tuple[int, str],
    now: datetime,
) -> None:
    """Remember `answer` (status code, body) for the user's external_id: the primary key
    refuses a second one (the loser of a race rolls back)."""
    status_code, body = answer
    key = {
        "user_uuid": user_uuid,
        "external_id": external_id,
        "request_hash": request_hash,
        "status_code": status_code,
        "response_body": body,
        "created_at": now,
    }
    await tx.execute(_INSERT, *row_args(_COLUMNS, [key]))


async def savepoint(tx: Tx) -> None:
    """A point the unit can return to, undoing what was written after it."""
    await tx.execute("SAVEPOINT act")


async def back_to_savepoint(tx: Tx) -> None:
    await tx.execute("ROLLBACK TO SAVEPOINT act")
