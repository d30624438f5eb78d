"""The dispute record (the API's shape), built from a row in one place.

Every read of a dispute selects `dispute_columns(alias)` first in its row and hands the row
to `dispute_record`; the events outbox reads disputes the same way.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from cardservice.db.sql import Row, iso_z, text_uuid
from cardservice.ledger.minor_units import from_minor

DISPUTE_FIELDS = (
    "uuid", "transaction_uuid", "amount", "currency", "reason", "explanation", "status",
    "evidence_attachment_uuids", "credit_transaction_uuid", "created_at", "updated_at",
    "resolved_at",
)  # fmt: skip
NEWEST_FIRST = "ORDER BY d.created_at DESC, d.uuid DESC"


def dispute_columns(table: str) -> str:
    """The select list `dispute_record` reads (put it first in the row)."""
    return ", ".join(f"{table}.{name}" for name in DISPUTE_FIELDS)


def dispute_record(row: Row | Sequence[Any]) -> dict[str, Any]:
    """A row that starts with `dispute_columns(…)` → the API's dispute record."""
    (
        uuid_, transaction_uuid, amount, currency, reason, explanation, status, evidence,
        credit_uuid, created_at, updated_at, resolved_at,
    ) = (row[i] for i in range(len(DISPUTE_FIELDS)))  # fmt: skip
    return {
        "uuid": text_uuid(uuid_),
        "transaction_uuid": text_uuid(transaction_uuid),
        "amount": from_minor(amount),
        "currency": currency,
        "reason": reason,
        "explanation": explanation,
        "status": status,
        "evidence_attachment_uuids": json.loads(evidence),
        "credit_transaction_uuid": text_uuid(credit_uuid),
        "created_at": iso_z(created_at),
        "updated_at": iso_z(updated_at),
        "resolved_at": iso_z(resolved_at),
    }


def dispute_record_of(row: dict[str, Any]) -> dict[str, Any]:
    """The record of a dispute held as a dict of its columns."""
    return dispute_record([row[name] for name in DISPUTE_FIELDS])
