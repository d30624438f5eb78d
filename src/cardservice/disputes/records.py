"""The dispute record (the API's shape), built from a row in one place.

Every read of a dispute selects `dispute_columns(alias)` first in its row and hands the row
to `dispute_record`; the events outbox reads disputes the same way.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import orjson

from cardservice.db.sql import Row, as_datetime, iso_z, text_uuid
from cardservice.ledger.minor_units import from_minor

DISPUTE_FIELDS = (
    "uuid", "transaction_uuid", "amount", "currency", "reason", "explanation", "status",
    "evidence_attachment_uuids", "credit_transaction_uuid", "created_at", "updated_at",
    "resolved_at", "arn", "to_send", "deadline_at", "chargeback", "representment",
    "pre_arbitration", "history", "provisional", "claimed",
)  # fmt: skip
NEWEST_FIRST = "ORDER BY d.created_at DESC, d.uuid DESC"
# Mastercard's reason code of each reason (docs/disputes.md#reason-codes)
REASON_CODES = {
    "fraudulent": "4837", "not_received": "4855", "duplicate": "4834", "canceled": "4841",
    "not_as_described": "4853", "other": "4853",
}  # fmt: skip


def dispute_columns(table: str) -> str:
    """The select list `dispute_record` reads (put it first in the row)."""
    return ", ".join(f"{table}.{name}" for name in DISPUTE_FIELDS)


def _json(text: Any) -> Any:
    return None if text is None else orjson.loads(text)


def _step(text: Any) -> dict[str, Any] | None:
    """A chargeback's, a representment's or a pre-arbitration's JSON, its amount as money."""
    step = _json(text)
    if step is not None and "amount" in step:
        step["amount"] = from_minor(step["amount"])
    return step  # type: ignore[no-any-return]


def dispute_record(row: Row | Sequence[Any]) -> dict[str, Any]:
    """A row that starts with `dispute_columns(…)` → the API's dispute record."""
    d = dict(zip(DISPUTE_FIELDS, (row[i] for i in range(len(DISPUTE_FIELDS))), strict=True))
    deadline = as_datetime(d["deadline_at"])
    decided = d["status"] in ("won", "lost", "withdrawn")
    return {
        "uuid": text_uuid(d["uuid"]),
        "transaction_uuid": text_uuid(d["transaction_uuid"]),
        "amount": from_minor(d["amount"]),
        "currency": d["currency"],
        "reason": d["reason"],
        "reason_code": REASON_CODES[d["reason"]],
        "explanation": d["explanation"],
        "status": d["status"],
        "evidence_attachment_uuids": json.loads(d["evidence_attachment_uuids"]),
        "credit_transaction_uuid": text_uuid(d["credit_transaction_uuid"]),
        "provisional_credit": from_minor(d["provisional"] or 0),
        "arn": d["arn"],
        "chargeback": _step(d["chargeback"]),
        "representment": _step(d["representment"]),
        "pre_arbitration": _step(d["pre_arbitration"]),
        "deadline": None if deadline is None or decided else deadline.date().isoformat(),
        "history": _json(d["history"]) or [],
        "created_at": iso_z(d["created_at"]),
        "updated_at": iso_z(d["updated_at"]),
        "resolved_at": iso_z(d["resolved_at"]),
    }


def dispute_record_of(row: dict[str, Any]) -> dict[str, Any]:
    """The record of a dispute held as a dict of its columns."""
    return dispute_record([row[name] for name in DISPUTE_FIELDS])
