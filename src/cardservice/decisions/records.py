"""The decision endpoint's record (the API's shape), built from a row of `repository`."""

from __future__ import annotations

from typing import Any

from cardservice.db.sql import Row, iso_z


def endpoint_record(row: Row, secret: str | None = None) -> dict[str, Any]:
    """The endpoint and its health; with its secret only when `secret` is given (when it is set)."""
    record = {
        "url": row["url"],
        "timeout_ms": row["timeout_ms"],
        "on_timeout": row["on_timeout"],
        "consecutive_failures": row["consecutive_failures"],
        "stand_in_until": iso_z(row["stand_in_until"]),
        "created_at": iso_z(row["created_at"]),
        "updated_at": iso_z(row["updated_at"]),
    }
    if secret is not None:
        record["secret"] = secret
    return record
