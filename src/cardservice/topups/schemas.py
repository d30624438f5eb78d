"""Top-up requests and records."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal
from uuid import UUID

from pydantic import BaseModel, Field, StringConstraints

from cardservice.values.amounts import MoneyOut, PositiveAmount
from cardservice.values.requests import StrictRequest, UuidStr

TopupStatus = Literal["awaiting_payment", "completed", "cancelled", "expired"]


class TopupRequest(StrictRequest):
    account_uuid: UuidStr
    """The caller's account to credit."""
    method: Annotated[
        str, StringConstraints(pattern=r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$", max_length=64)
    ]
    """A payment method slug (`bank-transfer`, `crypto`, `card`)."""
    currency: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{2,16}$")]
    """What the payer sends: a `code` of `GET /payment/currencies/{slug}` for that method
    (`USD`, `USDT`)."""
    amount: PositiveAmount
    """How much the payer sends, in `currency` (a JSON number, at most 2 decimals), within the
    method's `min_amount`..`max_amount`."""


class ConfirmTopupRequest(StrictRequest):
    received_amount: PositiveAmount
    """What actually arrived, in the top-up's currency (a JSON number, at most 2 decimals, > 0);
    the credit is computed from it."""


class PayToLine(BaseModel):
    """One line of where to pay: `{"label": "IBAN", "value": "DE89 3704 0044 0532 0130 00"}`."""

    label: str
    value: str


class TopupRecord(BaseModel):
    uuid: UUID
    account_uuid: UUID
    status: TopupStatus
    reference: str
    method: str
    amount: MoneyOut
    currency: str
    fee: MoneyOut
    rate: MoneyOut
    credit_amount: MoneyOut
    account_currency: str
    received_amount: MoneyOut | None
    transaction_uuid: UUID | None
    expires_at: datetime
    created_at: datetime
    updated_at: datetime
    pay_to: list[PayToLine] = Field(
        default_factory=list,
        description="where to pay: the program's payment details for this method and"
        " currency, in order (docs/operations.md#where-top-ups-are-paid); empty when the"
        " program set none",
    )
