"""The top-up record (the API's shape), built from a row of `topups` (or a top-up just
written, as a dict of its columns)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from cardservice.db.sql import Row, iso_z, text_uuid
from cardservice.ledger.minor_units import from_minor


def topup_record(row: Row | dict[str, Any]) -> dict[str, Any]:
    """The API's top-up: amounts in the payment currency, `credit_amount` in the account's."""
    received = row["received_amount"]
    return {
        "uuid": text_uuid(row["uuid"]),
        "account_uuid": text_uuid(row["account_uuid"]),
        "status": row["status"],
        "reference": row["reference"],
        "method": row["method_slug"],
        "amount": from_minor(row["amount"]),
        "currency": row["currency"],
        "fee": from_minor(row["fee"]),
        "rate": Decimal(row["rate"]),
        "credit_amount": from_minor(row["credit_amount"]),
        "account_currency": row["account_currency"],
        "received_amount": None if received is None else from_minor(received),
        "transaction_uuid": text_uuid(row["transaction_uuid"]),
        "expires_at": iso_z(row["expires_at"]),
        "created_at": iso_z(row["created_at"]),
        "updated_at": iso_z(row["updated_at"]),
    }
