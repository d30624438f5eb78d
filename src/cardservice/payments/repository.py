"""The statements of the payment methods and their currencies (reference data)."""

from __future__ import annotations

from collections.abc import Sequence

from cardservice.db.sql import Reader, Row


async def method_exists(reader: Reader, slug: str) -> bool:
    found = await reader.value("SELECT slug FROM payment_methods WHERE slug = $1", slug)
    return found is not None


async def currencies_of_method(reader: Reader, slug: str) -> Sequence[Row]:
    """The method's currencies, in catalogue order."""
    return await reader.rows(
        "SELECT code, name, network, decimals, min_amount, max_amount, fee_percent"
        " FROM payment_currencies WHERE method_slug = $1 ORDER BY position",
        slug,
    )
