"""Reading transactions: one by uuid, its receipt, and the paginated report."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from cardservice.errors import TransactionNotFound
from cardservice.ledger.money import from_minor
from cardservice.security import mask
from cardservice.sql import Reader, Row, as_datetime, text_uuid
from cardservice.transactions.receipt import ReceiptView
from cardservice.transactions.records import (
    NEWEST_FIRST,
    transaction_columns,
    transaction_record,
)


def _start_of(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


TRANSACTION_COLUMNS = transaction_columns("t")
SHORT_OFFSET = 1_000  # rows an index walk skips in well under a millisecond
SHORT_ROWS = 101  # rows a page reads at most (per_page ≤ 100, and one more to look ahead)


def _where(user_uuid: uuid.UUID, filters: dict[str, Any]) -> tuple[str, list[Any]]:
    clauses = ["t.user_uuid = $1"]
    args: list[Any] = [user_uuid]
    for key in ("card_uuid", "account_uuid", "status", "type"):
        if key in filters:
            args.append(filters[key])
            clauses.append(f"t.{key} = ${len(args)}")
    if "date_from" in filters:
        args.append(_start_of(filters["date_from"]))
        clauses.append(f"t.created_at >= ${len(args)}")
    if "date_to" in filters:
        args.append(_start_of(filters["date_to"] + timedelta(days=1)))
        clauses.append(f"t.created_at < ${len(args)}")
    return " AND ".join(clauses), args


async def _total(reader: Reader, where: str, args: list[Any]) -> int:
    """How many transactions match: the user's kept count when unfiltered."""
    if len(args) == 1:
        count = "SELECT transactions FROM transaction_counts WHERE user_uuid = $1"
        return int(await reader.value(count, *args) or 0)
    count = f"SELECT count(*) FROM transactions t WHERE {where}"  # noqa: S608
    return int((await reader.scan(count, *args))[0][0])


async def report(
    reader: Reader, user_uuid: uuid.UUID, filters: dict[str, Any], offset: int, limit: int
) -> tuple[list[dict[str, Any]], int]:
    """The user's transactions, newest first (ties by uuid), and how many match.

    Unfiltered, the total is the user's count kept by the database (`transaction_counts`), so
    page 1 costs the same at any history size; filtered, the matching rows are counted.

    The page is found first by its keys alone (a "deferred join"): the rows skipped by the
    offset are walked in the index (user, created_at, uuid) — on PostgreSQL an index-only
    scan — and only the page's own rows are read from the table. Selecting every column
    with the offset instead reads each skipped row from the table: a deep page of a
    1,000,000-transaction history is then 400,000 random heap reads per request.
    """
    where, args = _where(user_uuid, filters)
    n = len(args)  # the clauses are fixed text; every value is a parameter
    if n == 1:
        total_column = "(SELECT c.transactions FROM transaction_counts c WHERE c.user_uuid = $1)"
    else:
        total_column = "count(*) OVER ()"
    query = (
        f"SELECT {TRANSACTION_COLUMNS}, k.total FROM ("  # noqa: S608
        f"SELECT t.uuid, t.created_at, {total_column} AS total FROM transactions t"
        f" WHERE {where} {NEWEST_FIRST} LIMIT ${n + 1} OFFSET ${n + 2}"
        f") k JOIN transactions t ON t.uuid = k.uuid ORDER BY k.created_at DESC, k.uuid DESC"
    )
    # Page 1 of the whole history reads its 20 rows by index; a deep offset walks the index,
    # and a filter counts every matching row: those may take long, and leave the loop.
    short = n == 1 and offset < SHORT_OFFSET
    rows = await (reader.rows if short else reader.scan)(query, *args, limit, offset)
    total = int(rows[0]["total"]) if rows else await _total(reader, where, args)
    return [transaction_record(row) for row in rows], total


Anchor = tuple[Any, Any]  # (created_at, uuid) of the row a keyset page starts after


async def _rows_after(
    reader: Reader, where: str, args: list[Any], anchor: Anchor | None, limit: int
) -> Sequence[Row]:
    """Up to `limit` matching rows after `anchor` in the report's order: an index range scan
    from the anchor, whatever its depth (short unless filtered or many rows are asked)."""
    short = len(args) == 1 and limit <= SHORT_ROWS
    if anchor is not None:
        n = len(args)
        where = f"{where} AND (t.created_at, t.uuid) < (${n + 1}, ${n + 2})"
        args = [*args, *anchor]
    query = (
        f"SELECT {TRANSACTION_COLUMNS} FROM transactions t"  # noqa: S608
        f" WHERE {where} {NEWEST_FIRST} LIMIT ${len(args) + 1}"
    )
    return await (reader.rows if short else reader.scan)(query, *args, limit)


async def report_after(
    reader: Reader,
    user_uuid: uuid.UUID,
    filters: dict[str, Any],
    starting_after: uuid.UUID,
    limit: int,
) -> tuple[list[dict[str, Any]], int, str | None]:
    """A keyset page (API.md §11): the transactions after one of the user's own, in the
    report's order; how many match in all; the uuid to start the next page after (None on
    the last page)."""
    anchor = await reader.row(
        "SELECT created_at, uuid FROM transactions WHERE uuid = $1 AND user_uuid = $2",
        starting_after,
        user_uuid,
    )
    if anchor is None:
        raise TransactionNotFound("starting_after names none of your transactions.")
    where, args = _where(user_uuid, filters)
    rows = await _rows_after(reader, where, args, (anchor[0], anchor[1]), limit + 1)
    following = text_uuid(rows[limit - 1]["uuid"]) if len(rows) > limit else None
    records = [transaction_record(row) for row in rows[:limit]]
    return records, await _total(reader, where, args), following


async def every_transaction(
    reader: Reader, user_uuid: uuid.UUID, filters: dict[str, Any], batch: int = 1_000
) -> AsyncIterator[list[dict[str, Any]]]:
    """All matching transactions in the report's order, `batch` records at a time (a keyset
    walk: memory holds one batch, whatever the history's size)."""
    where, args = _where(user_uuid, filters)
    anchor: Anchor | None = None
    while True:
        rows = await _rows_after(reader, where, args, anchor, batch)
        if rows:
            yield [transaction_record(row) for row in rows]
        if len(rows) < batch:
            return
        anchor = (rows[-1]["created_at"], rows[-1]["uuid"])


async def one_transaction(
    reader: Reader, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID
) -> dict[str, Any]:
    """One of the user's transactions as its record; anybody else's is 404."""
    row = await reader.row(
        f"SELECT {TRANSACTION_COLUMNS} FROM transactions t WHERE t.uuid = $1 AND t.user_uuid = $2",  # noqa: S608
        transaction_uuid,
        user_uuid,
    )
    if row is None:
        raise TransactionNotFound()
    return transaction_record(row)


_RECEIPT = """
SELECT t.uuid, t.type, t.status, t.merchant_name, t.amount, t.fee, t.currency, t.direction,
       t.created_at, t.error_slug, c.bin, c.last4
FROM transactions t LEFT JOIN cards c ON c.uuid = t.card_uuid
WHERE t.uuid = $1 AND t.user_uuid = $2
"""


async def receipt_view(
    reader: Reader, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID
) -> ReceiptView:
    """What the receipt of one of the user's transactions shows (card mask, never the number)."""
    row = await reader.row(_RECEIPT, transaction_uuid, user_uuid)
    if row is None:
        raise TransactionNotFound()
    created_at = as_datetime(row["created_at"])
    assert created_at is not None
    return ReceiptView(
        transaction_uuid=str(text_uuid(row["uuid"])),
        type=row["type"],
        status=row["status"],
        merchant_name=row["merchant_name"],
        amount=str(from_minor(row["amount"])),
        fee=str(from_minor(row["fee"])),
        currency=row["currency"],
        direction=row["direction"],
        card_mask=mask(row["bin"], row["last4"]) if row["bin"] is not None else None,
        created_at=created_at,
        error=row["error_slug"],
    )
