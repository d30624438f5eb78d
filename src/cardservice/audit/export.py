"""The audit trail as CSV (`GET /operator/audit-log` with `Accept: text/csv`): every matching
row, newest first, streamed a batch at a time through the record builder and the service's
one CSV writer (`values.csv_text`); `details` as the JSON the API shows."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from cardservice.audit.records import audit_record
from cardservice.audit.repository import AuditAnchor, AuditFilters, audit_after
from cardservice.db.sql import Reader
from cardservice.encoding import dumps
from cardservice.values.csv_text import csv_stream, utc_text

COLUMNS = ("uuid", "created_at", "actor_type", "actor_id", "action", "object_type",
           "object_uuid", "request_id", "details")  # fmt: skip
BATCH = 1_000


def _line(record: dict[str, Any]) -> list[Any]:
    details = record["details"]
    return [
        record["uuid"], utc_text(record["created_at"]), record["actor"]["type"],
        record["actor"]["id"], record["action"], record["object_type"], record["object_uuid"],
        record["request_id"], None if details is None else dumps(details).decode(),
    ]  # fmt: skip


async def _lines(reader: Reader, filters: AuditFilters) -> AsyncIterator[list[list[Any]]]:
    anchor: AuditAnchor | None = None
    while True:
        rows, more = await audit_after(reader, filters, anchor, BATCH)
        if rows:
            yield [_line(audit_record(row)) for row in rows]
        if not more:
            return
        anchor = (rows[-1]["created_at"], rows[-1]["id"])


def audit_csv(reader: Reader, filters: AuditFilters) -> AsyncIterator[bytes]:
    """The header, then one chunk of CSV per batch of matching rows."""
    return csv_stream(COLUMNS, _lines(reader, filters))
