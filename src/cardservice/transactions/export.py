"""`GET /transaction/report.csv`: every matching transaction as RFC 4180 CSV, streamed.

The rows come from the report's keyset walk (`reports.every_transaction`), one batch at a
time, through the one transaction record builder; memory holds one batch whatever the
history's size. Amounts are plain decimals (`12.50`), timestamps ISO 8601 UTC.
"""

from __future__ import annotations

import csv
import io
import uuid
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

from cardservice.sql import Reader
from cardservice.transactions.reports import every_transaction

COLUMNS = (
    "uuid", "created_at", "updated_at", "type", "status", "direction", "amount", "fee",
    "refunded_amount", "currency", "card_uuid", "account_uuid", "merchant_name", "merchant_mcc",
    "merchant_country", "merchant_city", "tag", "error", "flagged", "description", "parent_uuid",
    "decision",
)  # fmt: skip


def _cell(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else value


def _line(record: dict[str, Any]) -> list[Any]:
    merchant = record["merchant"] or {}
    flat = {**record, **{f"merchant_{key}": value for key, value in merchant.items()}}
    return [_cell(flat.get(column)) for column in COLUMNS]


async def csv_chunks(
    reader: Reader, user_uuid: uuid.UUID, filters: dict[str, Any]
) -> AsyncIterator[bytes]:
    """The header, then one chunk of CSV per batch of transactions."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    yield buffer.getvalue().encode()
    async for records in every_transaction(reader, user_uuid, filters):
        buffer.seek(0)
        buffer.truncate()
        writer.writerows(_line(record) for record in records)
        yield buffer.getvalue().encode()
