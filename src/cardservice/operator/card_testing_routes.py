"""`GET /operator/card-testing` (scope `network` or `reports`): what the card-testing guard
holds now — the merchants it blocked and the BINs it locked (docs/network.md, "Card
testing", "BIN lock")."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import Depends
from pydantic import BaseModel

from cardservice.db.sql import Row, as_datetime
from cardservice.http.database import Db
from cardservice.http.openapi import Envelope
from cardservice.http.router import JSONResponse, Router, ok
from cardservice.models.base import utcnow
from cardservice.operator.api_keys import Operator
from cardservice.operator.dependencies import OPERATOR_KEY, operator_with
from cardservice.transactions.card_testing import locks

router = Router(tags=["operator"])
Readers = Annotated[Operator, Depends(operator_with("network", "reports"))]


class MerchantBlocked(BaseModel):
    acquirer_id: str
    merchant_id: str
    until: datetime


class BinLocked(BaseModel):
    bin: str
    unknown_numbers: int
    until: datetime


class CardTesting(BaseModel):
    merchants_blocked: list[MerchantBlocked]
    bins_locked: list[BinLocked]


def _merchant(row: Row) -> dict[str, Any]:
    return {
        "acquirer_id": row["acquirer_id"],
        "merchant_id": row["merchant_id"],
        "until": as_datetime(row["blocked_until"]),
    }


def _bin(row: Row) -> dict[str, Any]:
    return {
        "bin": row["bin"],
        "unknown_numbers": row["unknown_numbers"],
        "until": as_datetime(row["locked_until"]),
    }


@router.get(
    "/operator/card-testing",
    response_model=Envelope[CardTesting],
    openapi_extra=OPERATOR_KEY,
    summary="The merchants the card-testing guard blocked and the BINs it locked, now",
)
async def get_card_testing(_operator: Readers, db: Db) -> JSONResponse:
    """The merchants blocked (the pair acquirer id, merchant id; 10 verification failures
    within 10 minutes) and the BINs locked (more than 20 unknown numbers within 10 minutes,
    from any merchants) whose block or lock has not ended yet, each with its end (`until`),
    soonest first (scope `network` or `reports`)."""
    held = await locks(db.reader, utcnow())
    return ok(
        {
            "merchants_blocked": [_merchant(row) for row in held.merchants_blocked],
            "bins_locked": [_bin(row) for row in held.bins_locked],
        }
    )
