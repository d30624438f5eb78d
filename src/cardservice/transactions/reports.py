"""Reading transactions: one by uuid, its receipt, and the paginated report (the statements
are in repository.py)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

from cardservice.db.sql import Reader, Tx, as_datetime, text_uuid
from cardservice.errors import TransactionNotFound
from cardservice.ledger.minor_units import from_minor
from cardservice.security import mask
from cardservice.transactions import repository
from cardservice.transactions.receipt import ReceiptView
from cardservice.transactions.records import transaction_record


async def report(
    reader: Reader, user_uuid: uuid.UUID | None, filters: dict[str, Any], offset: int, limit: int
) -> tuple[list[dict[str, Any]], int]:
    """The user's transactions (every user's when None: the operator's read-back), newest
    first (ties by uuid), and how many match (`repository.report_page`)."""
    rows, total = await repository.report_page(reader, user_uuid, filters, offset, limit)
    return [transaction_record(row) for row in rows], total


async def report_totals(
    reader: Reader, user_uuid: uuid.UUID | None, filters: dict[str, Any]
) -> list[dict[str, Any]] | None:
    """`[{currency, debits, credits}]` of the transactions the filters match (None unfiltered:
    `repository.report_totals`)."""
    rows = await repository.report_totals(reader, user_uuid, filters)
    if rows is None:
        return None
    return [
        {
            "currency": row["currency"],
            "debits": from_minor(int(row["debits"])),
            "credits": from_minor(int(row["credits"])),
        }
        for row in rows
    ]


async def report_after(
    reader: Reader,
    user_uuid: uuid.UUID,
    filters: dict[str, Any],
    starting_after: uuid.UUID,
    limit: int,
) -> tuple[list[dict[str, Any]], int, str | None]:
    """A keyset page (docs/transactions.md#reading): the transactions after one of the user's own,
    in the report's order; how many match in all; the uuid to start the next page after (None on
    the last page)."""
    anchor = await repository.anchor_of(reader, user_uuid, starting_after)
    if anchor is None:
        raise TransactionNotFound("starting_after names none of your transactions.")
    rows, more = await repository.report_after(reader, user_uuid, filters, anchor, limit)
    following = text_uuid(rows[-1]["uuid"]) if more else None
    records = [transaction_record(row) for row in rows]
    return records, await repository.report_count(reader, user_uuid, filters), following


async def every_transaction(
    reader: Reader, user_uuid: uuid.UUID | None, filters: dict[str, Any], batch: int = 1_000
) -> AsyncIterator[list[dict[str, Any]]]:
    """All matching transactions of the user (of every user when None) in the report's
    order, `batch` records at a time (a keyset
    walk: memory holds one batch, whatever the history's size)."""
    anchor: repository.Anchor | None = None
    while True:
        rows, more = await repository.report_after(reader, user_uuid, filters, anchor, batch)
        if rows:
            yield [transaction_record(row) for row in rows]
        if not more:
            return
        anchor = (rows[-1]["created_at"], rows[-1]["uuid"])


async def one_transaction(
    reader: Reader | Tx, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID
) -> dict[str, Any]:
    """One of the user's transactions as its record; anybody else's is 404."""
    row = await repository.own_transaction(reader, user_uuid, transaction_uuid)
    if row is None:
        raise TransactionNotFound()
    return transaction_record(row)


async def receipt_view(
    reader: Reader, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID
) -> ReceiptView:
    """What the receipt of one of the user's transactions shows (card mask, never the number)."""
    row = await repository.receipt_row(reader, user_uuid, transaction_uuid)
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
