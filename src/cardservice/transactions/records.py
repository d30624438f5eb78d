"""The transaction record (the API's shape), built from a row in one place.

Every read of a transaction selects `transaction_columns(alias)` first in its row and hands
the row to `transaction_record`; a transaction just written is a dict of its columns
(`transactions.repository.transaction_row`) and goes through `transaction_record_of`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

import orjson

from cardservice.db.sql import Row, flag, iso_z, text_uuid
from cardservice.ledger.minor_units import from_minor
from cardservice.security import mask

TRANSACTION_FIELDS = (
    "uuid", "type", "status", "amount", "currency", "direction", "card_uuid", "account_uuid",
    "merchant_name", "merchant_mcc", "merchant_country", "merchant_city", "tag_slug",
    "error_slug", "fee", "refunded_amount", "flagged", "description", "parent_uuid",
    "decision", "created_at", "updated_at", "authorized_amount", "captured_amount",
    "hold_expires_at", "merchant_amount", "merchant_currency", "rate",
    "merchant_captured_amount", "channel", "network", "stand_in", "shortfall", "clearing",
    "receipt_attachment_uuid", "token",
)  # fmt: skip
NEWEST_FIRST = "ORDER BY t.created_at DESC, t.uuid DESC"


def transaction_columns(table: str) -> str:
    """The select list `transaction_record` reads (put it first in the row)."""
    return ", ".join(f"{table}.{name}" for name in TRANSACTION_FIELDS)


def transaction_record(row: Row | Sequence[Any]) -> dict[str, Any]:
    """A row that starts with `transaction_columns(…)` → the API's transaction record."""
    return transaction_record_of(dict(zip(TRANSACTION_FIELDS, row, strict=False)))


def transaction_record_of(row: Mapping[str, Any]) -> dict[str, Any]:
    """The record of a transaction held as a mapping of its columns (read by name)."""
    merchant = None
    if row["merchant_name"] is not None:
        merchant = {
            "name": row["merchant_name"],
            "mcc": row["merchant_mcc"],
            "country": row["merchant_country"],
            "city": row["merchant_city"],
        }
    merchant_amount, merchant_captured = row["merchant_amount"], row["merchant_captured_amount"]
    return {
        "uuid": text_uuid(row["uuid"]),
        "type": row["type"],
        "status": row["status"],
        "amount": from_minor(row["amount"]),
        "currency": row["currency"],
        "direction": row["direction"],
        "card_uuid": text_uuid(row["card_uuid"]),
        "account_uuid": text_uuid(row["account_uuid"]),
        "merchant": merchant,
        "tag": row["tag_slug"],
        "error": row["error_slug"],
        "fee": from_minor(row["fee"]),
        "refunded_amount": from_minor(row["refunded_amount"]),
        "authorized_amount": from_minor(row["authorized_amount"]),
        "captured_amount": from_minor(row["captured_amount"]),
        "hold_expires_at": iso_z(row["hold_expires_at"]),
        "merchant_amount": None if merchant_amount is None else from_minor(merchant_amount),
        "merchant_captured_amount": None
        if merchant_captured is None
        else from_minor(merchant_captured),
        "merchant_currency": row["merchant_currency"],
        "rate": None if row["rate"] is None else Decimal(row["rate"]),
        "flagged": flag(row["flagged"]),
        "description": row["description"],
        "parent_uuid": text_uuid(row["parent_uuid"]),
        "decision": row["decision"],
        "channel": row["channel"],
        "network": None if row["network"] is None else orjson.loads(row["network"]),
        "token": None if row["token"] is None else orjson.loads(row["token"]),
        "stand_in": flag(row["stand_in"]),
        "shortfall": from_minor(row["shortfall"]),
        "receipt_attachment_uuid": text_uuid(row["receipt_attachment_uuid"]),
        "clearing": None if row["clearing"] is None else orjson.loads(row["clearing"]),
        "created_at": iso_z(row["created_at"]),
        "updated_at": iso_z(row["updated_at"]),
    }


def three_ds_code_record(row: Row | Mapping[str, Any], code: str | None = None) -> dict[str, Any]:
    """A 3DS code's record (`ThreeDsRecord`) with the code itself; without it when `code` is
    None (what its event carries). The card's mask, never its number."""
    record = {
        "uuid": text_uuid(row["uuid"]),
        "card_uuid": text_uuid(row["card_uuid"]),
        "card_mask": mask(row["bin"], row["last4"]),
        "merchant_name": row["merchant_name"],
        "amount": from_minor(row["amount"]),
        "currency": row["currency"],
        "created_at": iso_z(row["created_at"]),
        "expires_at": iso_z(row["expires_at"]),
    }
    if code is not None:
        record["code"] = code
    return record
