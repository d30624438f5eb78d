"""CSV the way every export of the service writes it: RFC 4180 with a header row, streamed a
batch of rows at a time (memory holds one batch), amounts as plain decimals, timestamps ISO
8601 UTC (`…Z`).

Formula injection (CWE-1236): a spreadsheet runs a cell that begins with `=`, `+`, `-`,
`@`, a tab or a carriage return. Merchant names, descriptions and audit details come from
outside, so every text cell that begins so is prefixed with a single quote (OWASP's
advice); numbers (Decimal amounts) are written as they are.
"""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula, quoted so it reads as text; any
    other value (a Decimal amount, None) as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def utc_text(value: str | datetime) -> str:
    """A record's timestamp: already `…Z` text from SQLite, an aware datetime from asyncpg."""
    return value if isinstance(value, str) else value.strftime("%Y-%m-%dT%H:%M:%SZ")


async def csv_stream(
    columns: Sequence[str], batches: AsyncIterator[Sequence[Sequence[Any]]]
) -> AsyncIterator[bytes]:
    """The header, then one chunk of CSV per batch of rows (each row the cells of `columns`,
    None an empty cell); every cell through `safe_cell`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(columns)
    yield buffer.getvalue().encode()
    async for rows in batches:
        buffer.seek(0)
        buffer.truncate()
        writer.writerows([safe_cell(cell) for cell in row] for row in rows)
        yield buffer.getvalue().encode()
