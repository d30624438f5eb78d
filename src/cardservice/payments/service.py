"""Payment methods and their currencies, from the reference catalogue."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.errors import NotFound
from cardservice.models import PaymentCurrency, PaymentMethod
from cardservice.payments.schemas import PaymentCurrencyRecord


class PaymentMethodNotFound(NotFound):
    message = "Unknown payment method."


async def currencies_of(session: AsyncSession, slug: str) -> list[PaymentCurrencyRecord]:
    """The currencies a payment method accepts, in catalogue order; 404 for unknown methods."""
    if await session.get(PaymentMethod, slug) is None:
        raise PaymentMethodNotFound()
    rows = await session.scalars(
        select(PaymentCurrency)
        .where(PaymentCurrency.method_slug == slug)
        .order_by(PaymentCurrency.position)
    )
    return [
        PaymentCurrencyRecord(
            code=row.code,
            name=row.name,
            network=row.network,
            decimals=row.decimals,
            min_amount=Decimal(row.min_amount),
            max_amount=Decimal(row.max_amount),
            fee_percent=Decimal(row.fee_percent),
        )
        for row in rows
    ]
