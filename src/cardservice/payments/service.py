"""Payment methods and their currencies, from the reference catalogue."""

from __future__ import annotations

from decimal import Decimal

from cardservice.db.sql import Reader
from cardservice.errors import NotFound
from cardservice.payments import repository
from cardservice.payments.schemas import PaymentCurrencyRecord


class PaymentMethodNotFound(NotFound):
    message = "Unknown payment method."


async def currencies_of(reader: Reader, slug: str) -> list[PaymentCurrencyRecord]:
    """The currencies a payment method accepts, in catalogue order; 404 for unknown methods."""
    if not await repository.method_exists(reader, slug):
        raise PaymentMethodNotFound()
    rows = await repository.currencies_of_method(reader, slug)
    return [
        PaymentCurrencyRecord(
            code=row["code"],
            name=row["name"],
            network=row["network"],
            decimals=row["decimals"],
            min_amount=Decimal(row["min_amount"]),
            max_amount=Decimal(row["max_amount"]),
            fee_percent=Decimal(row["fee_percent"]),
        )
        for row in rows
    ]
