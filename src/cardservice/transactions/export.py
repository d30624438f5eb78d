"""`GET /transaction/report.csv`: every matching transaction as RFC 4180 CSV, streamed.

The rows come from the report's keyset walk (`reports.every_transaction`), one batch at a
time, through the one transaction record builder; memory holds one batch whatever the
history's size. Amounts are plain decimals (`12.50`), timestamps ISO 8601 UTC.

Formula injection (CWE-1236): a spreadsheet runs a cell that begins with `=`, `+`, `-`,
`@`, a tab or a carriage return. Merchant names and cities come from the network, so every
text cell that begins so is prefixed with a single quote (OWASP's advice); the amount
columns are numbers and are written as they are.
"""

from __future__ import annotations

import csv
import io
import uuid
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

from cardservice.db.sql import Reader
from cardservice.transactions.reports import every_transaction

COLUMNS = (
    "uuid", "created_at", "updated_at", "type", "status", "direction", "amount", "fee",
    "refunded_amount", "currency", "card_uuid", "account_uuid", "merchant_name", "merchant_mcc",
    "merchant_country", "merchant_city", "tag", "error", "flagged", "description", "parent_uuid",
    "decision",
)  # fmt: skip


_NO_MERCHANT: dict[str, None] = {"name": None, "mcc": None, "country": None, "city": None}
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula, quoted so it reads as text; any
    other value (a Decimal amount, None) as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _time(value: str | datetime) -> str:
    """A record's timestamp: already `…Z` text from SQLite, an aware datetime from asyncpg."""
    return value if isinstance(value, str) else value.strftime("%Y-%m-%dT%H:%M:%SZ")


def _line(r: dict[str, Any]) -> list[Any]:
    """One record as the cells of `COLUMNS` (the csv writer writes None as an empty cell);
    every text cell through `_cell`, numbers (Decimal amounts) as they are."""
    m = r["merchant"] or _NO_MERCHANT
    cells = [
        r["uuid"], _time(r["created_at"]), _time(r["updated_at"]), r["type"], r["status"],
        r["direction"], r["amount"], r["fee"], r["refunded_amount"], r["currency"],
        r["card_uuid"], r["account_uuid"], m["name"], m["mcc"], m["country"], m["city"],
        r["tag"], r["error"], "true" if r["flagged"] else "false", r["description"],
        r["parent_uuid"], r["decision"],
    ]  # fmt: skip
    return [_cell(cell) for cell in cells]


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
