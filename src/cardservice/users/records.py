"""The user record (the API's shape), built from a row of `operator.repository`'s user reads."""

from __future__ import annotations

from typing import Any

from cardservice.db.sql import Row, iso_z, text_uuid


def user_record(row: Row) -> dict[str, Any]:
    return {
        "uuid": text_uuid(row["uuid"]),
        "email": row["email"],
        "name": row["name"],
        "team": row["team"],
        "role": row["role"],
        "program_uuid": text_uuid(row["program_uuid"]),
        "status": row["status"],
        "created_at": iso_z(row["created_at"]),
    }
