"""3DS codes from the issuer's ACS (docs/operations.md#running-a-program, `network` scope): the ACS
names the card by its number, found through the fingerprint index (cards/lookup.py), never
decrypted; the code becomes the same record as `POST /sandbox/3ds` makes. The number is never
echoed, logged or kept in the audit row (which names the card by its uuid)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Any

from pydantic import Field, StringConstraints

from cardservice.cards import card_by_pan
from cardservice.db.sql import Tx, as_uuid
from cardservice.errors import NotFound
from cardservice.ledger.minor_units import to_minor
from cardservice.operator.acting import Acting
from cardservice.security import CardCipher
from cardservice.transactions import issue_code
from cardservice.values.amounts import PositiveAmount, WholeNumber
from cardservice.values.requests import StrictRequest


class AcsCodeRequest(StrictRequest):
    pan: Annotated[
        str,
        StringConstraints(pattern=r"^\d{12,19}$"),
        Field(json_schema_extra={"example": "4000001234567899"}),
    ]
    """The card's full number, 12..19 digits (never echoed, never logged)."""
    code: Annotated[str, StringConstraints(pattern=r"^\d{6}$")]
    """The one-time code, 6 digits, as the ACS sent it to the cardholder."""
    merchant_name: Annotated[str, StringConstraints(min_length=1, max_length=120)]
    """The merchant the code is for, 1..120 characters (shown to the cardholder)."""
    amount: PositiveAmount
    """The purchase amount the code confirms (a JSON number, at most 2 decimals, > 0)."""
    currency: Annotated[str, StringConstraints(pattern=r"^[A-Z]{3}$")]
    """The purchase currency, ISO 4217 (`EUR`)."""
    expires_in: WholeNumber = Field(default=600, ge=10, le=86_400, description="seconds")


class UnknownCard(NotFound):
    message = "No card has this number."


async def record_acs_code(
    tx: Tx, cipher: CardCipher, acting: Acting, body: AcsCodeRequest, now: datetime
) -> dict[str, Any]:
    """The code for the card with this number (404 when none), as the sandbox records one."""
    card = await card_by_pan(tx, cipher, body.pan)
    if card is None:
        raise UnknownCard()
    owner, card_uuid = as_uuid(card["owner_uuid"]), as_uuid(card["uuid"])
    assert owner is not None and card_uuid is not None
    ttl = timedelta(seconds=body.expires_in)
    amount = to_minor(body.amount)
    record = await issue_code(
        tx, cipher, owner, card_uuid, body.merchant_name, amount, body.currency, ttl, now, body.code
    )
    await acting.record(
        tx, "three_ds.code_received", "card", card_uuid, {"code_uuid": record["uuid"]}
    )
    return record
