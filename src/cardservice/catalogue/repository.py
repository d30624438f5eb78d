"""The statements of the operator's catalogue (`$n` SQL): BINs, a program's fees, the FX rates
the operator set, and the last authorization of a pair. The records are built in
`records.py`."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from cardservice.db.paging import Offset, paginate
from cardservice.db.sql import Reader, Row, Tx

BIN_COLUMNS = "uuid, bin, brand, currency, status, card_price"
_INSERT_BIN = f"INSERT INTO bins ({BIN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)"  # noqa: S608
_BIN = f"SELECT {BIN_COLUMNS} FROM bins WHERE uuid = $1"  # noqa: S608
_LOCK_BIN = _BIN + " FOR UPDATE"
# A BIN equal to $1, a prefix of it, or starting with it: its card numbers would overlap.
_OVERLAPPING_BIN = """
SELECT bin FROM bins
WHERE CAST($1 AS VARCHAR) LIKE bin || '%' OR bin LIKE CAST($1 AS VARCHAR) || '%'
ORDER BY bin LIMIT 1"""
_PROGRAM_FEES = "SELECT fee_overrides FROM programs WHERE uuid = $1"
_LOCK_PROGRAM_FEES = _PROGRAM_FEES + " FOR UPDATE"
_SET_PROGRAM_FEES = "UPDATE programs SET fee_overrides = $2, updated_at = $3 WHERE uuid = $1"
RATE_COLUMNS = "uuid, base, quote, rate, effective_at, created_at"
_INSERT_RATE = f"INSERT INTO fx_rate_history ({RATE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)"  # noqa: S608
# The pair's last foreign-currency transaction (ix_transactions_fx_pair).
_LAST_USE = (
    "SELECT max(created_at) FROM transactions WHERE merchant_currency = $1 AND currency = $2"
)


async def insert_bin(tx: Tx, row: dict[str, Any]) -> None:
    await tx.execute(
        _INSERT_BIN,
        row["uuid"], row["bin"], row["brand"], row["currency"], row["status"], row["card_price"],
    )  # fmt: skip


async def one_bin(source: Reader | Tx, bin_uuid: uuid.UUID, *, lock: bool = False) -> Row | None:
    return await source.row(_LOCK_BIN if lock else _BIN, bin_uuid)


async def overlapping_bin(tx: Tx, digits: str) -> str | None:
    """A BIN whose card numbers would overlap those of `digits`, or None."""
    found: str | None = await tx.value(_OVERLAPPING_BIN, digits)
    return found


async def update_bin(tx: Tx, bin_uuid: uuid.UUID, columns: dict[str, Any]) -> None:
    sets = ", ".join(f"{name} = ${i}" for i, name in enumerate(columns, start=2))
    await tx.execute(f"UPDATE bins SET {sets} WHERE uuid = $1", bin_uuid, *columns.values())  # noqa: S608


async def program_fees(
    source: Reader | Tx, program_uuid: uuid.UUID, *, lock: bool = False
) -> tuple[bool, str | None]:
    """Whether the program exists, and its fees as stored (JSON, or None)."""
    row = await source.row(_LOCK_PROGRAM_FEES if lock else _PROGRAM_FEES, program_uuid)
    return (False, None) if row is None else (True, row["fee_overrides"])


async def set_program_fees(
    tx: Tx, program_uuid: uuid.UUID, stored: str | None, now: datetime
) -> None:
    await tx.execute(_SET_PROGRAM_FEES, program_uuid, stored, now)


async def insert_rate(tx: Tx, row: dict[str, Any]) -> None:
    await tx.execute(
        _INSERT_RATE,
        row["uuid"], row["base"], row["quote"], row["rate"], row["effective_at"], row["created_at"],
    )  # fmt: skip


async def last_use(tx: Tx, base: str, quote: str) -> Any:
    """When the pair last converted a transaction (its newest `created_at`), or None."""
    return await tx.value(_LAST_USE, base, quote)


async def page_of_rates(
    reader: Reader, filters: dict[str, Any], offset: int, limit: int
) -> tuple[Sequence[Row], int]:
    """A page of the operator's rates, the latest `effective_at` first (ties: the later set
    first, then by uuid), with `filters` (`base`, `quote`), and how many match."""
    clauses = [f"{key} = ${i}" for i, key in enumerate(filters, start=1)]
    where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
    return await paginate(
        reader,
        f"SELECT $TOTAL AS total, {RATE_COLUMNS} FROM fx_rate_history{where}"  # noqa: S608
        " ORDER BY effective_at DESC, created_at DESC, uuid",
        list(filters.values()),
        Offset(offset, limit),
        count=f"SELECT count(*) FROM fx_rate_history{where}",  # noqa: S608
    )
