"""The books (docs/operations.md#running-a-program "Books", `reports`): `GET
/operator/balances?as_of=<iso>`, every ledger account class per currency at an instant, and `GET
/operator/reports/settlement?date=`, the day's settlement with the card network. Both read
`ledger/books.py`."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Annotated

from fastapi import Depends, Query
from pydantic import BaseModel, Field

from cardservice.errors import ValidationFailed
from cardservice.http.database import Db
from cardservice.http.openapi import Envelope
from cardservice.http.router import JSONResponse, QueryText, Router, ok
from cardservice.ledger.books import class_balances, settlement_report
from cardservice.models.base import utcnow
from cardservice.operator.api_keys import Operator
from cardservice.operator.dependencies import OPERATOR_KEY, operator_with

router = Router(tags=["operator"])
Reports = Annotated[Operator, Depends(operator_with("reports"))]
DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class ClassBalance(BaseModel):
    class_: str = Field(alias="class")
    balance: Decimal


class CurrencyBalances(BaseModel):
    currency: str
    balances: list[ClassBalance]


class CountAmount(BaseModel):
    count: int
    amount: Decimal


class Settlement(BaseModel):
    currency: str
    date: str
    captures: CountAmount
    refunds: CountAmount
    dispute_credits: CountAmount
    chargebacks: CountAmount
    representments: CountAmount
    net: Decimal


def _instant(text: str | None) -> datetime:
    """`as_of`: an ISO 8601 instant with its zone (`Z` or an offset); now when left out."""
    if text is None:
        return utcnow()
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise ValidationFailed(errors={"as_of": ["must be an ISO 8601 instant"]}) from None
    if moment.tzinfo is None:
        raise ValidationFailed(errors={"as_of": ["give the instant with its zone, e.g. Z"]})
    return moment.astimezone(UTC)


def _day(text: str) -> date:
    """`date`: a calendar day, YYYY-MM-DD (UTC)."""
    try:
        if DAY.match(text) is None:
            raise ValueError(text)
        return date.fromisoformat(text)
    except ValueError:
        raise ValidationFailed(errors={"date": ["must be a date, YYYY-MM-DD"]}) from None


@router.get(
    "/operator/balances",
    response_model=Envelope[list[CurrencyBalances]],
    openapi_extra=OPERATOR_KEY,
    summary="Every ledger account class per currency at an instant (each currency sums to 0)",
)
async def get_operator_balances(
    _operator: Reports,
    db: Db,
    as_of: Annotated[QueryText | None, Query(description="ISO 8601 instant; default now")] = None,
) -> JSONResponse:
    """The balance of every ledger account class (cardholder accounts, cards, held, fees
    earned, network settlement, cardholder receivables, funding) per currency at an instant
    (scope `reports`); each currency's balances sum to zero."""
    return ok(await class_balances(db.reader, _instant(as_of)))


@router.get(
    "/operator/reports/settlement",
    response_model=Envelope[list[Settlement]],
    openapi_extra=OPERATOR_KEY,
    summary="A UTC day's settlement with the card network, per currency",
)
async def get_settlement_report(
    _operator: Reports,
    db: Db,
    day: Annotated[
        QueryText | None, Query(alias="date", description="a UTC day, YYYY-MM-DD; default today")
    ] = None,
) -> JSONResponse:
    """One UTC day's settlement with the card network per currency (scope `reports`): captures,
    refunds and dispute credits (count and amount) and `net`, owed to the network — equal to
    that day's postings to the network settlement account. Without `date`, today (UTC)."""
    return ok(await settlement_report(db.reader, utcnow().date() if day is None else _day(day)))
