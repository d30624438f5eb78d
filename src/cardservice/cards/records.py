"""The card record (the API's shape, not the table's), built from a row in one place.

Every read of a card — `GET /card`, `GET /card/{uuid}`, an account's `card_info`, a purchase's
cards — selects `card_columns(alias)` last in its row and hands the row to `card_record`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from cardservice.cards.controls import controls_record
from cardservice.db.sql import Row, flag, iso_z, text_uuid
from cardservice.ledger.minor_units import from_minor
from cardservice.security import mask

CARD_FIELDS = (
    "uuid", "account_uuid", "bin", "brand", "last4", "expiry_month", "expiry_year", "currency",
    "balance", "status", "is_favorite", "sort_order", "description", "external_id", "holder_name",
    "holder_address", "auto_replenish_amount", "auto_replenish_min_balance", "spending_controls",
    "created_at", "updated_at", "card_type", "locked_merchant", "closed_reason", "replaces",
    "replaced_by", "frozen_reason", "form", "shipping", "fulfilment_status", "fulfilment_carrier",
    "fulfilment_tracking", "fulfilment_updated_at", "pin_set", "pin_blocked",
)  # fmt: skip
HOLDER_FIELDS = ("line1", "line2", "city", "state", "postal_code", "country")
SHIPPING_FIELDS = ("name", "line1", "line2", "city", "postal_code", "country")
# fields that are not a column: whether a PIN is set is read, never its verification value
_EXPRESSIONS = {"pin_set": "({table}.pin_pvv IS NOT NULL)"}


def card_columns(table: str, prefix: str = "") -> str:
    """The select list `card_record` reads (put it last in the row), from alias `table`."""
    return ", ".join(
        f"{_EXPRESSIONS.get(name, '{table}.' + name).format(table=table)} AS {prefix}{name}"
        for name in CARD_FIELDS
    )


def card_order(table: str) -> str:
    """The user's card order: position, then age, then uuid (stable across pages)."""
    return f"{table}.sort_order, {table}.created_at, {table}.uuid"


def card_record(row: Row | Sequence[Any]) -> dict[str, Any]:
    """A row that ends with the columns of `card_columns(…)` → the API's card record.

    The card's columns are taken by position (the last `len(CARD_FIELDS)`), not by name:
    a 100-card page makes 2,000 lookups, and this is the cheaper way to make them.
    """
    (
        card_uuid, account_uuid, bin_, brand, last4, expiry_month, expiry_year, currency,
        balance, status, is_favorite, sort_order, description, external_id, holder_name,
        address, amount, min_balance, controls, created_at, updated_at, card_type,
        locked_merchant, closed_reason, replaces, replaced_by, frozen_reason, form, shipping,
        fulfilment, carrier, tracking, fulfilment_at, pin_set, pin_blocked,
    ) = tuple(row)[-len(CARD_FIELDS) :]  # fmt: skip
    if isinstance(address, str | bytes):
        address = orjson.loads(address)
    if isinstance(shipping, str | bytes):
        shipping = orjson.loads(shipping)
    return {
        "uuid": text_uuid(card_uuid),
        "account_uuid": text_uuid(account_uuid),
        "bin": bin_,
        "brand": brand,
        "mask": mask(bin_, last4),
        "last4": last4,
        "expiry_month": expiry_month,
        "expiry_year": expiry_year,
        "currency": currency,
        "balance": from_minor(balance),
        "status": status,
        "is_favorite": flag(is_favorite),
        "sort_order": sort_order,
        "description": description,
        "external_id": external_id,
        "holder_name": holder_name,
        "holder_address": {k: address.get(k) for k in HOLDER_FIELDS} if address else None,
        "auto_replenish": {
            "enabled": amount is not None,
            "amount": from_minor(amount) if amount is not None else None,
            "min_balance": from_minor(min_balance) if min_balance is not None else None,
        },
        "spending_controls": controls_record(controls),
        "created_at": iso_z(created_at),
        "updated_at": iso_z(updated_at),
        "card_type": card_type,
        "locked_merchant": locked_merchant,
        "closed_reason": closed_reason,
        "replaces": text_uuid(replaces),
        "replaced_by": text_uuid(replaced_by),
        "frozen_reason": frozen_reason,
        "form": form,
        "shipping": {k: shipping.get(k) for k in SHIPPING_FIELDS} if shipping else None,
        "fulfilment": None
        if fulfilment is None
        else {
            "status": fulfilment,
            "carrier": carrier,
            "tracking": tracking,
            "updated_at": iso_z(fulfilment_at),
        },
        "pin_set": flag(pin_set),
        "pin_blocked": flag(pin_blocked),
    }


def card_record_of(card: dict[str, Any]) -> dict[str, Any]:
    """The record of a card held as a dict of its columns (a card just inserted)."""
    values = {**card, "pin_set": card.get("pin_pvv") is not None}
    return card_record([values[name] for name in CARD_FIELDS])
