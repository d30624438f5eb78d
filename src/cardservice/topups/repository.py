"""Queries for top-ups (`$n` SQL); the record is built in `records.py`."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal
from typing import Any

from cardservice.db.paging import Offset, paginate
from cardservice.db.sql import Reader, Row, Tx, insert_sql, row_args
from cardservice.dictionaries import rate_in_force
from cardservice.models import Topup
from cardservice.models.base import table_of

COLUMNS = tuple(table_of(Topup).columns.keys())
_INSERT = insert_sql("topups", COLUMNS)
_SELECT = f"SELECT {', '.join('t.' + c for c in COLUMNS)} FROM topups t"  # noqa: S608
NEWEST_FIRST = "ORDER BY t.created_at DESC, t.uuid DESC"
_CURRENCY = """
SELECT c.min_amount, c.max_amount, c.fee_percent FROM payment_currencies c
WHERE c.method_slug = $1 AND c.code = $2 ORDER BY c.position LIMIT 1"""
_LOCK_ACCOUNT = """
SELECT a.uuid, a.user_uuid, a.status, a.currency FROM topups t
JOIN accounts a ON a.uuid = t.account_uuid WHERE t.uuid = $1
FOR NO KEY UPDATE OF a"""
_OWN_ACCOUNT = """
SELECT uuid, status, currency FROM accounts WHERE uuid = $1 AND user_uuid = $2"""
_EXPIRE = """
UPDATE topups SET status = 'expired', updated_at = $1
WHERE status = 'awaiting_payment' AND expires_at <= $1 RETURNING uuid"""


async def payment_currency(tx: Tx, method: str, code: str) -> Row | None:
    return await tx.row(_CURRENCY, method, code)


async def method_exists(tx: Tx, method: str) -> bool:
    return await tx.value("SELECT slug FROM payment_methods WHERE slug = $1", method) is not None


async def rate(tx: Tx, base: str, quote: str, at: datetime) -> Decimal | None:
    """The rate from `base` to `quote` in force at `at` (docs/operations.md#your-own-catalogue)."""
    found = await rate_in_force(tx, base, quote, at)
    return None if found is None else Decimal(found)


async def own_account(tx: Tx, account_uuid: uuid.UUID, user_uuid: uuid.UUID) -> Row | None:
    return await tx.row(_OWN_ACCOUNT, account_uuid, user_uuid)


async def insert(tx: Tx, topup: dict[str, Any]) -> None:
    await tx.execute(_INSERT, *row_args(COLUMNS, [topup]))


async def lock_account_of(tx: Tx, topup_uuid: uuid.UUID) -> Row | None:
    """The top-up's account (the first lock of the global order), locked; None if unknown."""
    return await tx.row(_LOCK_ACCOUNT, topup_uuid)


async def lock(tx: Tx, topup_uuid: uuid.UUID) -> Row | None:
    return await tx.row(f"{_SELECT} WHERE t.uuid = $1 FOR UPDATE", topup_uuid)


async def update(tx: Tx, topup_uuid: uuid.UUID, columns: dict[str, Any]) -> None:
    sets = ", ".join(f"{name} = ${i}" for i, name in enumerate(columns, start=2))
    await tx.execute(
        f"UPDATE topups SET {sets} WHERE uuid = $1",  # noqa: S608 - column names
        topup_uuid,
        *columns.values(),
    )


async def one(
    reader: Reader | Tx, topup_uuid: uuid.UUID, user_uuid: uuid.UUID | None
) -> Row | None:
    """A top-up (the user's own when `user_uuid` is given)."""
    if user_uuid is None:
        return await reader.row(f"{_SELECT} WHERE t.uuid = $1", topup_uuid)
    return await reader.row(
        f"{_SELECT} WHERE t.uuid = $1 AND t.user_uuid = $2", topup_uuid, user_uuid
    )


async def page(
    reader: Reader, user_uuid: uuid.UUID, offset: int, limit: int
) -> tuple[Sequence[Row], int]:
    return await paginate(
        reader,
        f"{_SELECT} WHERE t.user_uuid = $1 {NEWEST_FIRST}",
        [user_uuid],
        Offset(offset, limit),
        count="SELECT count(*) FROM topups WHERE user_uuid = $1",
    )


async def expire_due(tx: Tx, now: datetime) -> list[uuid.UUID]:
    """Mark every unpaid top-up due at `now` expired, in one statement: a concurrent sweeper's
    update waits for this one's rows and then finds them no longer awaiting payment."""
    return [uuid.UUID(str(row["uuid"])) for row in await tx.rows(_EXPIRE, now)]
