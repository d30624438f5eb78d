"""The audit-trail record (the API's shape), built from a row of `repository.page_of_audit`."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from cardservice.db.sql import Row, as_uuid, iso_z, text_uuid


def audit_record(row: Row) -> dict[str, Any]:
    """A row of `page_of_audit` → its API record (`details` parsed back to an object, its
    amounts as exact decimals: `500.00` reads back `500.00`)."""
    details = row["details"]
    return {
        "uuid": text_uuid(row["uuid"]),
        "created_at": iso_z(row["created_at"]),
        "actor": {"type": row["actor_type"], "id": row["actor_id"]},
        "action": row["action"],
        "object_type": row["object_type"],
        "object_uuid": text_uuid(as_uuid(row["object_uuid"])),
        "request_id": row["request_id"],
        "details": json.loads(details, parse_float=Decimal) if details else None,
    }
