"""Records of the dictionary endpoints."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Annotated, Literal
from uuid import UUID

from pydantic import BaseModel, Field, WithJsonSchema

Amount = Annotated[Decimal, WithJsonSchema({"type": "number"})]


class DictionaryRecord(BaseModel):
    slug: str
    name: str
    description: str


class TagRecord(BaseModel):
    slug: str
    name: str
    category: str
    transactions_count: int
    hold_days: int = Field(
        description="Days a pending authorization with this tag is held before it expires."
    )


class BlockedTagRecord(BaseModel):
    slug: str
    name: str
    restriction: Literal["blocked", "restricted"]
    reason: str


class FeeRecord(BaseModel):
    slug: str
    name: str
    kind: Literal["fixed", "percent"]
    amount: Amount
    currency: str | None


class BinRecord(BaseModel):
    uuid: UUID
    bin: str
    brand: str
    currency: str
    status: Literal["available", "unavailable"]
    card_price: Amount | None = Field(
        description="The price of a card on this BIN, in its currency: the `card_issue` fee of "
        "`/dictionary/fees` for cards bought on it; `null`: the fee schedule's `card_issue`."
    )


class FxRateRecord(BaseModel):
    """1 `base` = `rate` `quote`: a merchant charging in `base` on a card holding `quote`."""

    base: str
    quote: str
    rate: Annotated[Decimal, WithJsonSchema({"type": "number", "format": "decimal"})]
    date: str = Field(description="The day the rate took effect (ISO date, UTC).")
    effective_at: datetime = Field(
        description="The instant the rate took effect; it applies until the pair's next rate."
    )
