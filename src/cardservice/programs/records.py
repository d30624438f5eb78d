"""The program record (the API's shape), built from a row of `programs` (or a program just
written, as a dict of its columns)."""

from __future__ import annotations

from typing import Any

import orjson

from cardservice.db.sql import Row, iso_z, text_uuid
from cardservice.transactions.control_checks import controls_record


def program_record(row: Row | dict[str, Any]) -> dict[str, Any]:
    return {
        "uuid": text_uuid(row["uuid"]),
        "name": row["name"],
        "bin_uuids": orjson.loads(row["bin_uuids"]),
        "spending_controls": controls_record(row["spending_controls"]),
        "card_validity_months": int(row["card_validity_months"]),
        "provisional_credit": bool(row["provisional_credit"]),
        "created_at": iso_z(row["created_at"]),
        "updated_at": iso_z(row["updated_at"]),
    }
