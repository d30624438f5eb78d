"""The transaction record (the API's shape), built from a row in one place.

Every read of a transaction selects `transaction_columns(alias)` first in its row and hands
the row to `transaction_record`; a transaction just written is a dict of its columns
(`transactions.rows.transaction_row`) and goes through `transaction_record_of`.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import orjson

from cardservice.ledger.money import from_minor
from cardservice.sql import Row, flag, iso_z, text_uuid

TRANSACTION_FIELDS = (
    "uuid", "type", "status", "amount", "currency", "direction", "card_uuid", "account_uuid",
    "merchant_name", "merchant_mcc", "merchant_country", "merchant_city", "tag_slug",
    "error_slug", "fee", "refunded_amount", "flagged", "description", "parent_uuid",
    "decision", "created_at", "updated_at", "authorized_amount", "captured_amount",
    "hold_expires_at", "merchant_amount", "merchant_currency", "rate",
    "merchant_captured_amount", "channel", "network", "stand_in", "shortfall",
)  # fmt: skip
_WIDTH = len(TRANSACTION_FIELDS)
NEWEST_FIRST = "ORDER BY t.created_at DESC, t.uuid DESC"


def transaction_columns(table: str) -> str:
    """The select list `transaction_record` reads (put it first in the row)."""
    return ", ".join(f"{table}.{name}" for name in TRANSACTION_FIELDS)


def transaction_record(row: Row | Sequence[Any]) -> dict[str, Any]:
    """A row that starts with `transaction_columns(…)` → the API's transaction record."""
    (
        uuid_, type_, status, amount, currency, direction, card_uuid, account_uuid,
        merchant_name, mcc, country, city, tag, error, fee, refunded, flagged, description,
        parent_uuid, decision, created_at, updated_at, authorized, captured, expires_at,
        merchant_amount, merchant_currency, rate, merchant_captured, channel, network,
        stand_in, shortfall,
    ) = tuple(row)[:_WIDTH]  # fmt: skip
    merchant = None
    if merchant_name is not None:
        merchant = {"name": merchant_name, "mcc": mcc, "country": country, "city": city}
    return {
        "uuid": text_uuid(uuid_),
        "type": type_,
        "status": status,
        "amount": from_minor(amount),
        "currency": currency,
        "direction": direction,
        "card_uuid": text_uuid(card_uuid),
        "account_uuid": text_uuid(account_uuid),
        "merchant": merchant,
        "tag": tag,
        "error": error,
        "fee": from_minor(fee),
        "refunded_amount": from_minor(refunded),
        "authorized_amount": from_minor(authorized),
        "captured_amount": from_minor(captured),
        "hold_expires_at": iso_z(expires_at),
        "merchant_amount": None if merchant_amount is None else from_minor(merchant_amount),
        "merchant_captured_amount": None
        if merchant_captured is None
        else from_minor(merchant_captured),
        "merchant_currency": merchant_currency,
        "rate": None if rate is None else Decimal(rate),
        "flagged": flag(flagged),
        "description": description,
        "parent_uuid": text_uuid(parent_uuid),
        "decision": decision,
        "channel": channel,
        "network": None if network is None else orjson.loads(network),
        "stand_in": flag(stand_in),
        "shortfall": from_minor(shortfall),
        "created_at": iso_z(created_at),
        "updated_at": iso_z(updated_at),
    }


def transaction_record_of(row: dict[str, Any]) -> dict[str, Any]:
    """The record of a transaction held as a dict of its columns."""
    return transaction_record([row[name] for name in TRANSACTION_FIELDS])
