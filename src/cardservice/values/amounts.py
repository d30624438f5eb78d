"""Pydantic types for money at the JSON edge: exact Decimals, at most 2 decimals."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, WithJsonSchema

MAX_AMOUNT = Decimal("100000000")  # 100 million major units per amount field


def _exact_number(value: Any) -> Any:
    """Accept JSON numbers only (ints or exactly parsed decimals), never strings or booleans."""
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise ValueError("must be a number")
    return Decimal(value) if isinstance(value, int) else value


AMOUNT_SCHEMA = {
    "type": "number",
    "format": "decimal",
    "minimum": 0,
    "maximum": 100000000,
    "multipleOf": 0.01,
}
POSITIVE_AMOUNT_SCHEMA = {
    "type": "number",
    "format": "decimal",
    "exclusiveMinimum": 0,
    "maximum": 100000000,
    "multipleOf": 0.01,
}
Amount = Annotated[
    Decimal,
    BeforeValidator(_exact_number),
    Field(ge=0, le=MAX_AMOUNT, decimal_places=2),
    WithJsonSchema(AMOUNT_SCHEMA),
]
PositiveRate = Annotated[
    Decimal,
    BeforeValidator(_exact_number),
    Field(gt=0, le=Decimal(1_000_000), decimal_places=10),
    WithJsonSchema({"type": "number", "format": "decimal", "exclusiveMinimum": 0}),
]
PositiveAmount = Annotated[
    Decimal,
    BeforeValidator(_exact_number),
    Field(gt=0, le=MAX_AMOUNT, decimal_places=2),
    WithJsonSchema(POSITIVE_AMOUNT_SCHEMA),
]
MoneyOut = Annotated[Decimal, WithJsonSchema({"type": "number", "format": "decimal"})]


def _whole_number(value: Any) -> Any:
    """JSON integers, and numbers like `91.0` that JSON Schema also calls integers."""
    if isinstance(value, Decimal) and value.is_finite() and value == value.to_integral_value():
        return int(value)
    return value


WholeNumber = Annotated[int, BeforeValidator(_whole_number)]
