"""Payment currency records."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated

from pydantic import BaseModel, WithJsonSchema

Number = Annotated[Decimal, WithJsonSchema({"type": "number"})]


class PaymentCurrencyRecord(BaseModel):
    code: str
    name: str
    network: str | None
    decimals: int
    min_amount: Number
    max_amount: Number
    fee_percent: Number
