"""The account record (the API's shape), built from a row of `repository.ACCOUNT_SELECT`."""

from __future__ import annotations

from typing import Any

from cardservice.cards import card_record
from cardservice.db.sql import Row, iso_z, text_uuid
from cardservice.ledger.minor_units import from_minor


def account_record(row: Row) -> dict[str, Any]:
    """An account with its owner, card count and primary card (`card_info`, or None)."""
    return {
        "uuid": text_uuid(row["uuid"]),
        "name": row["name"],
        "type": row["type"],
        "status": row["status"],
        "currency": row["currency"],
        "balance": from_minor(row["balance"]),
        "cards_count": int(row["cards_count"]),
        "card_info": card_record(row) if row["p_uuid"] is not None else None,
        "owner": {"uuid": text_uuid(row["user_uuid"]), "name": row["owner_name"]},
        "created_at": iso_z(row["created_at"]),
        "updated_at": iso_z(row["updated_at"]),
    }
