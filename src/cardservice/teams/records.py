"""The team records (the API's shape), built from rows in one place: a request's (which the
events outbox reads too), a budget's, the receipt policy's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from cardservice.db.sql import Row, flag, iso_z, text_uuid
from cardservice.ledger.minor_units import from_minor

REQUEST_FIELDS = (
    "uuid", "kind", "status", "details", "decision_reason", "result", "created_at",
    "updated_at", "decided_at", "user_uuid", "decided_by",
)  # fmt: skip
NEWEST_FIRST = "ORDER BY q.created_at DESC, q.uuid DESC"
# details kept in minor units → the API's amounts
_AMOUNTS = ("start_balance", "amount")


def request_columns(table: str, requester: str, decider: str) -> str:
    """The select list `request_record` reads (first in the row): the request's columns from
    `table`, then the names of its requester and decider (users aliased `requester` and
    `decider`, the decider LEFT JOINed)."""
    own = ", ".join(f"{table}.{name}" for name in REQUEST_FIELDS)
    return f"{own}, {requester}.name, {decider}.name"


def _details(text: str | bytes) -> dict[str, Any]:
    details: dict[str, Any] = orjson.loads(text)
    for key in _AMOUNTS:
        if details.get(key) is not None:
            details[key] = from_minor(details[key])
    return details


def _ref(uuid_: Any, name: str | None) -> dict[str, Any] | None:
    return None if uuid_ is None else {"uuid": text_uuid(uuid_), "name": name}


def request_record(row: Row | Sequence[Any]) -> dict[str, Any]:
    """A row that starts with `request_columns(…)` → the API's team request record."""
    (
        uuid_, kind, status, details, reason, result, created_at, updated_at, decided_at,
        user_uuid, decided_by, requester_name, decider_name,
    ) = (row[i] for i in range(len(REQUEST_FIELDS) + 2))  # fmt: skip
    return {
        "uuid": text_uuid(uuid_),
        "kind": kind,
        "status": status,
        "requested_by": _ref(user_uuid, requester_name),
        "details": _details(details),
        "decided_by": _ref(decided_by, decider_name),
        "decision_reason": reason,
        "result": None if result is None else orjson.loads(result),
        "created_at": iso_z(created_at),
        "updated_at": iso_z(updated_at),
        "decided_at": iso_z(decided_at),
    }


def budget_record(row: Row, month: str, amount: int, spent: int) -> dict[str, Any]:
    """A budget row (user_uuid, name, currency, amount) as it stands in `month`."""
    return {
        "member": {"uuid": text_uuid(row["user_uuid"]), "name": row["name"]},
        "currency": row["currency"],
        "amount": from_minor(amount),
        "monthly_amount": from_minor(row["amount"]),
        "spent": from_minor(spent),
        "remaining": from_minor(amount - spent),
        "month": month,
    }


def missing_record(row: Row) -> dict[str, Any]:
    """A purchase the receipt policy chases → its record."""
    return {
        "transaction_uuid": text_uuid(row["uuid"]),
        "member": {"uuid": text_uuid(row["user_uuid"]), "name": row["name"]},
        "card_uuid": text_uuid(row["card_uuid"]),
        "amount": from_minor(row["amount"]),
        "currency": row["currency"],
        "merchant_name": row["merchant_name"],
        "captured_at": iso_z(row["captured_at"]),
        "reminded": flag(row["reminded"]),
        "card_frozen": row["card_status"] == "frozen" and row["frozen_reason"] == "receipt_missing",
    }


def policy_record(row: Row) -> dict[str, Any]:
    """A receipt policy row → its record."""
    return {
        "min_amount": from_minor(row["min_amount"]),
        "currency": row["currency"],
        "remind_after_days": int(row["remind_after_days"]),
        "freeze_after_days": int(row["freeze_after_days"]),
        "created_at": iso_z(row["created_at"]),
        "updated_at": iso_z(row["updated_at"]),
    }
