"""The catalogue's records (the API's shape), built from rows: a BIN, an FX rate the operator
set, a program's fees."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from cardservice.db.sql import Row, iso_z, text_uuid
from cardservice.dictionaries import FeeSchedule
from cardservice.ledger.minor_units import from_minor

# A program's fee fields: the schedule's slug and kind of each
# (docs/operations.md#your-own-catalogue).
PROGRAM_FEE_FIELDS = {
    "card_decline": ("card_decline", "fixed"),
    "card_fx": ("card_fx", "percent"),
    "card_physical": ("card_physical", "fixed"),
    "card_atm": ("card_atm", "fixed"),
    "topup_percent": ("card_topup", "percent"),
}


def bin_record(row: Row | dict[str, Any]) -> dict[str, Any]:
    """As `GET /dictionary/bins` lists it."""
    price = row["card_price"]
    return {
        "uuid": text_uuid(row["uuid"]),
        "bin": row["bin"],
        "brand": row["brand"],
        "currency": row["currency"],
        "status": row["status"],
        "card_price": None if price is None else from_minor(price),
    }


def rate_entry(row: Row | dict[str, Any]) -> dict[str, Any]:
    return {
        "uuid": text_uuid(row["uuid"]),
        "base": row["base"],
        "quote": row["quote"],
        "rate": Decimal(row["rate"]),
        "effective_at": iso_z(row["effective_at"]),
        "created_at": iso_z(row["created_at"]),
    }


def program_fees_record(
    program_uuid: Any, overrides: list[tuple[str, str, int]], schedule: FeeSchedule
) -> dict[str, Any]:
    """The program's fee fields (null: not overridden) and the schedule its cardholders pay."""
    by_slug = {slug: value for slug, _kind, value in overrides}
    record: dict[str, Any] = {"program_uuid": text_uuid(program_uuid)}
    for field, (slug, _kind) in PROGRAM_FEE_FIELDS.items():
        value = by_slug.get(slug)
        record[field] = None if value is None else from_minor(value)
    record["fees"] = [
        {"slug": f.slug, "name": f.name, "kind": f.kind, "amount": from_minor(f.value),
         "currency": None}
        for f in schedule.fees.values()
    ]  # fmt: skip
    return record
