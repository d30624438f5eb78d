"""Booking one presentment of a clearing file (API.md §18), in one unit that also writes the
record's outcome: a crash before the commit books nothing of it, a second run finds it
booked and moves nothing. Every movement goes through the entry the other channels use:

- a purchase presentment whose authorization (the card's, by approval code) is still held is
  a capture (`transactions.service.capture`, `presented`: never refused, what the card
  cannot pay owed as `shortfall`);
- one whose authorization was captured already is a `duplicate` at the same amount, an
  amount difference at another (`adjustments.recapture`);
- one whose authorization was released, expired, or never given is a force post: an
  authorization the network approved on the issuer's behalf (`engine.authorize` with
  `stand_in`, exactly as an 0120 advice is recorded) captured at once in the same unit;
- a refund presentment of a purchase an earlier presentment with the same ARN cleared is a
  `duplicate` when an 0220 refunded that purchase online by the same amount (the online
  refund then shows the record as its `clearing`; nothing moves), else it refunds the
  purchase (`lifecycle.refund`); with no such purchase it credits the card
  (`adjustments.credit_card`).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import orjson

from cardservice.clearing import repository
from cardservice.db.sql import Row, Tx, as_uuid
from cardservice.errors import NotFound, RuleViolation
from cardservice.models.base import utcnow
from cardservice.network.repository import IssuedCard, issued_card
from cardservice.security import CardCipher
from cardservice.transactions import lifecycle, service
from cardservice.transactions.adjustments import credit_card, recapture
from cardservice.transactions.engine import Authorization, authorize
from cardservice.transactions.service import CaptureMessage

MATCHED, DUPLICATE, DIFFERENCE = "matched", "duplicate", "amount_difference"
FORCE_POSTED, REFUND, UNMATCHED = "force_posted", "refund", "unmatched"
MERCHANT_NAME_LENGTH = 120  # the transaction's column


class RecordTaken(Exception):
    """Another unit booked this record first: this one rolls back."""


@dataclass(frozen=True, slots=True)
class Outcome:
    outcome: str
    transaction_uuid: uuid.UUID | None = None
    reason: str | None = None
    authorized: int | None = None  # an amount difference's captured amount before


def clearing_json(file_uuid: uuid.UUID, record: Row) -> str:
    """What a transaction booked by the record shows as its `clearing`."""
    return orjson.dumps(
        {"file_uuid": str(file_uuid), "message_number": int(record["message_number"]),
         "arn": record["arn"]}
    ).decode()  # fmt: skip


async def book_record(tx: Tx, cipher: CardCipher, file_uuid: uuid.UUID, record: Row) -> Outcome:
    """Book one record and write its outcome in the same unit (`RecordTaken`: it was booked
    by another unit; this one must roll back)."""
    outcome = await _outcome(tx, cipher, file_uuid, record)
    taken = not await repository.book(
        tx, record["id"], outcome.outcome, outcome.reason, outcome.transaction_uuid,
        outcome.authorized, utcnow(),
    )  # fmt: skip
    if taken:
        raise RecordTaken(str(record["id"]))
    return outcome


async def _outcome(tx: Tx, cipher: CardCipher, file_uuid: uuid.UUID, record: Row) -> Outcome:
    card = await issued_card(tx, record["fingerprint"])
    if card is None:
        return Outcome(UNMATCHED, reason="unknown card")
    if not str(record["currency"]).isalpha():
        return Outcome(UNMATCHED, reason=f"unknown currency {record['currency']} (DE 49)")
    clearing = clearing_json(file_uuid, record)
    if record["kind"] == "refund":
        return await _refund(tx, card, record, clearing)
    found = None
    if record["approval_code"]:
        found = await repository.authorization(tx, card.card_uuid, record["approval_code"])
    if found is not None and found["status"] == "pending":
        matched = await _capture(tx, found, record, clearing)
        if matched is not None:
            return matched
    elif found is not None and found["status"] in ("completed", "refunded"):
        return await _captured_before(tx, found, record, clearing)
    return await _force_post(tx, cipher, card, record, clearing)


def _same_currency(found: Row, record: Row) -> bool:
    """The presentment is in the currency the authorization was (the merchant's)."""
    return bool(record["currency"] == (found["merchant_currency"] or found["currency"]))


async def _capture(tx: Tx, found: Row, record: Row, clearing: str) -> Outcome | None:
    """A held authorization captured with the presented amount; None when it stopped being
    held before its lock was taken (a force post then)."""
    purchase = as_uuid(found["uuid"])
    assert purchase is not None
    if not _same_currency(found, record):
        return Outcome(UNMATCHED, purchase, "currency differs from the authorization's")
    message = CaptureMessage(purchase, int(record["amount"]), channel="clearing", presented=True)
    try:
        await service.capture(tx, found["user_uuid"], message)
    except lifecycle.InvalidTransition:  # nothing written yet: released meanwhile
        return None
    await repository.set_clearing(tx, purchase, clearing)
    return Outcome(MATCHED, purchase)


async def _captured_before(tx: Tx, found: Row, record: Row, clearing: str) -> Outcome:
    """An authorization captured already (an 0220 came first): the same amount is a
    duplicate, another moves the difference."""
    purchase = as_uuid(found["uuid"])
    assert purchase is not None
    if not _same_currency(found, record):
        return Outcome(UNMATCHED, purchase, "currency differs from the authorization's")
    foreign = found["merchant_currency"] is not None
    captured = int(found["merchant_captured_amount" if foreign else "captured_amount"])
    if captured == int(record["amount"]):
        return Outcome(DUPLICATE, purchase)
    try:
        _row, before = await recapture(
            tx, found["user_uuid"], purchase, int(record["amount"]), utcnow()
        )
    except RuleViolation as refusal:  # nothing written: refunded, or less than was given back
        return Outcome(UNMATCHED, purchase, f"amount differs: {refusal.message}")
    await repository.set_clearing(tx, purchase, clearing)
    return Outcome(DIFFERENCE, purchase, authorized=before if not foreign else captured)


def _merchant(record: Row) -> dict[str, Any]:
    """The merchant's fields as a transaction keeps them (a country only as alpha-2)."""
    country = record["merchant_country"]
    return {
        "name": (record["merchant_name"] or "")[:MERCHANT_NAME_LENGTH] or None,
        "city": (record["merchant_city"] or "")[:MERCHANT_NAME_LENGTH] or None,
        "country": country if country and len(country) == 2 else None,
        "mcc": record["mcc"],
    }


async def _force_post(
    tx: Tx, cipher: CardCipher, card: IssuedCard, record: Row, clearing: str
) -> Outcome:
    """A presentment with no authorization held for it: a new purchase the network approved
    for the issuer, captured at once (what the card cannot cover is its `shortfall`)."""
    merchant = _merchant(record)
    request = Authorization(
        card_uuid=card.card_uuid,
        amount=int(record["amount"]),
        currency=str(record["currency"]),
        merchant_name=merchant["name"] or record["merchant_id"] or "Card acceptor",
        mcc=merchant["mcc"],
        merchant_country=merchant["country"],
        merchant_city=merchant["city"],
        merchant_id=record["merchant_id"],
        channel="clearing",
        stand_in=True,
        token=card.paid_with,
    )
    row = await authorize(tx, cipher, card.user_uuid, request)
    message = CaptureMessage(row["uuid"], channel="clearing", presented=True)
    await service.capture(tx, card.user_uuid, message)
    await repository.set_clearing(tx, row["uuid"], clearing)
    return Outcome(FORCE_POSTED, row["uuid"])


async def _refund(tx: Tx, card: IssuedCard, record: Row, clearing: str) -> Outcome:
    """A refund presentment: the clearing of an online refund of the purchase cleared with
    its ARN (a duplicate), or a refund of that purchase when it can take it, else a credit to
    the card."""
    credit = uuid.uuid4()
    columns = {"uuid": credit, "channel": "clearing", "clearing": clearing}
    purchase = await repository.cleared_by_arn(tx, record["arn"]) if record["arn"] else None
    if purchase is not None:
        online = await repository.clear_online_refund(
            tx, purchase, int(record["amount"]), str(record["currency"]), clearing
        )
        if online is not None:
            return Outcome(DUPLICATE, online)
        try:
            await lifecycle.refund(
                tx, card.user_uuid, purchase, int(record["amount"]), channel=columns
            )
            return Outcome(REFUND, credit)
        except (RuleViolation, NotFound):  # nothing written: another card's, or refunded
            pass
    merchant = _merchant(record)
    try:
        row = await credit_card(
            tx, card.user_uuid, card.card_uuid, int(record["amount"]), str(record["currency"]),
            merchant, utcnow(), channel="clearing", clearing=clearing,
        )  # fmt: skip
    except RuleViolation as refusal:
        return Outcome(UNMATCHED, reason=f"refund not booked: {refusal.message}")
    return Outcome(REFUND, as_uuid(row["uuid"]))
