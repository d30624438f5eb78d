"""`GET /transaction/report.csv` (and the operator's `GET /operator/transactions` with
`Accept: text/csv`): every matching transaction as RFC 4180 CSV, streamed.

The rows come from the report's keyset walk (`reports.every_transaction`), one batch at a
time, through the one transaction record builder; memory holds one batch whatever the
history's size. Amounts are plain decimals (`12.50`), timestamps ISO 8601 UTC.

The CSV itself (header, formula-injection quoting, streaming) is `values.csv_text`, the
one CSV writer of the service.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

from cardservice.db.sql import Reader
from cardservice.transactions.reports import every_transaction
from cardservice.values.csv_text import csv_stream, utc_text

COLUMNS = (
    "uuid", "created_at", "updated_at", "type", "status", "direction", "amount", "fee",
    "refunded_amount", "currency", "card_uuid", "account_uuid", "merchant_name", "merchant_mcc",
    "merchant_country", "merchant_city", "tag", "error", "flagged", "description", "parent_uuid",
    "decision",
)  # fmt: skip


_NO_MERCHANT: dict[str, None] = {"name": None, "mcc": None, "country": None, "city": None}


def _line(r: dict[str, Any]) -> list[Any]:
    """One record as the cells of `COLUMNS` (the csv writer writes None as an empty cell)."""
    m = r["merchant"] or _NO_MERCHANT
    return [
        r["uuid"], utc_text(r["created_at"]), utc_text(r["updated_at"]), r["type"], r["status"],
        r["direction"], r["amount"], r["fee"], r["refunded_amount"], r["currency"],
        r["card_uuid"], r["account_uuid"], m["name"], m["mcc"], m["country"], m["city"],
        r["tag"], r["error"], "true" if r["flagged"] else "false", r["description"],
        r["parent_uuid"], r["decision"],
    ]  # fmt: skip


async def _lines(
    reader: Reader, user_uuid: uuid.UUID | None, filters: dict[str, Any]
) -> AsyncIterator[list[list[Any]]]:
    async for records in every_transaction(reader, user_uuid, filters):
        yield [_line(record) for record in records]


def csv_chunks(
    reader: Reader, user_uuid: uuid.UUID | None, filters: dict[str, Any]
) -> AsyncIterator[bytes]:
    """The header, then one chunk of CSV per batch of the user's transactions (every user's
    when None: the operator's `GET /operator/transactions` as CSV)."""
    return csv_stream(COLUMNS, _lines(reader, user_uuid, filters))
