"""Endpoint 8 of the seed."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path

from cardservice.auth.dependencies import CallerA
from cardservice.http.database import Db
from cardservice.http.openapi import BEARER_OR_MFA, Envelope
from cardservice.http.router import JSONResponse, Router, ok
from cardservice.payments.schemas import PaymentCurrencyRecord
from cardservice.payments.service import currencies_of
from cardservice.values.patterns import SLUG_MAX_LENGTH, SLUG_PATTERN

router = Router(tags=["payments"])


@router.get(
    "/payment/currencies/{slug:slug}",
    response_model=Envelope[list[PaymentCurrencyRecord]],
    openapi_extra=BEARER_OR_MFA,
    summary="Currencies of a payment method",
)
async def list_payment_currencies(
    caller: CallerA,
    db: Db,
    slug: Annotated[
        str,
        Path(
            pattern=SLUG_PATTERN,
            max_length=SLUG_MAX_LENGTH,
            description="A top-up payment method: `bank-transfer`, `crypto`, `card`, …",
        ),
    ],
) -> JSONResponse:
    """The currencies a top-up payment method (`bank-transfer`, `crypto`, `card`, …) accepts,
    each with its network, decimals, minimum and maximum amount and percent fee. Unknown method
    → 404."""
    return ok(await currencies_of(db.reader, slug))
