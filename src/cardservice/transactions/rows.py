"""Transaction rows as the hot write paths insert them (plain SQL on a `Tx`)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from cardservice.models import Transaction
from cardservice.models.base import table_of
from cardservice.sql import Tx, insert_sql, row_args

_TABLE = table_of(Transaction)
_COLUMNS = tuple(_TABLE.columns.keys())
_OPTIONAL: dict[str, Any] = {
    "fee": 0,
    "refunded_amount": 0,
    "authorized_amount": 0,
    "captured_amount": 0,
    "hold_expires_at": None,
    "merchant_amount": None,
    "merchant_captured_amount": None,
    "merchant_currency": None,
    "rate": None,
    "merchant_name": None,
    "merchant_mcc": None,
    "merchant_country": None,
    "merchant_city": None,
    "tag_slug": None,
    "error_slug": None,
    "flagged": False,
    "description": None,
    "parent_uuid": None,
    "decision": None,
    "captured_at": None,  # the database sets it when a purchase completes
    "channel": "sandbox",
    "network": None,  # JSON text of the network's data (channel iso8583)
    "stand_in": False,
    "shortfall": 0,
}


def transaction_row(**fields: Any) -> dict[str, Any]:
    """A new transaction row: `fields`, a fresh uuid unless given, the columns' defaults for
    the rest. `user_uuid`, `account_uuid`, `card_uuid`, `type`, `status`, `direction`,
    `amount`, `currency`, `created_at` and `updated_at` have none: leaving one out fails
    at the insert."""
    return {"uuid": uuid.uuid4(), **_OPTIONAL, **fields}


def credit_row(
    purchase: dict[str, Any], type_: str, amount: int, description: str, now: datetime
) -> dict[str, Any]:
    """Money going back to a purchase's card (a refund, a dispute credit): a completed credit
    of the purchase's user, account, card and merchant, its `parent_uuid` the purchase."""
    same = (
        "user_uuid", "account_uuid", "card_uuid", "currency", "tag_slug", "merchant_name",
        "merchant_mcc", "merchant_country", "merchant_city",
    )  # fmt: skip
    return transaction_row(
        **{key: purchase[key] for key in same},
        type=type_,
        status="completed",
        direction="credit",
        amount=amount,
        description=description,
        parent_uuid=purchase["uuid"],
        created_at=now,
        updated_at=now,
    )


async def insert_transactions(tx: Tx, rows: Sequence[dict[str, Any]]) -> None:
    """Insert the rows in one statement."""
    await tx.execute(insert_sql(_TABLE.name, _COLUMNS, len(rows)), *row_args(_COLUMNS, rows))
