"""Booking the presentments of a clearing file (docs/network.md#units-of-records), a unit of records
in one unit of work that also writes their outcomes: a crash before the commit books nothing of
them, a second run finds them booked and moves nothing. What the records name is read first,
together (`Unit.read`: their cards by number, then the authorizations of their approval codes);
the unit's own writes are gathered and made together before it commits (`Unit.flush`: the
records' outcomes, the `clearing` of the transactions they captured, one statement each on
PostgreSQL). Its captures (the held authorizations locked at `Unit.read`,
`transactions.Captures`) and its force posts (`transactions.force_post`: one statement on
PostgreSQL) are decided in turn and written as sets, each cut only where a record needs the
money of another (`Unit.before_capture`, `Unit.before_force_post`; a refund of a purchase, a
difference and a dispute's record write both first), and before the outcomes. A record an
entry refuses (`Refused`, or any of the service's errors) rolls the unit back
(`RecordRefused`), and the caller books it again with that record as an exception; a set
refused whole (`SetRefused`) rolls it back too, and the caller books it again one capture and
force post at a time (`one_at_a_time`), which names the record.
Every movement goes through the entry the other channels use:

- a purchase presentment whose authorization (the card's, by approval code) is still held is
  a capture (`transactions.Captures`, the capture's rules, presented: never refused, what the
  card cannot pay owed as `shortfall`);
- one whose authorization was captured already is a `duplicate` at the same amount, an
  amount difference at another (`transactions.recapture`);
- one whose authorization was released, expired, or never given is a force post
  (`transactions.force_post`): an authorization the network approved on the issuer's behalf
  (`stand_in`, as an 0120 advice is recorded) and presented at once (`captured`): a completed
  purchase in one entry, the card paying the merchants' book (a single_use card then closes,
  as after any capture), written with the record as its `clearing` (so its
  `transaction.created` shows the record and its ARN);
- a refund presentment of a purchase an earlier presentment with the same ARN cleared is a
  `duplicate` when an 0220 refunded that purchase online by the same amount (the online
  refund then shows the record as its `clearing`; nothing moves), else it refunds the
  purchase (`transactions.refund`); with no such purchase it credits the card
  (`transactions.credit_card`);
- a second presentment is the merchant's answer to a chargeback (`clearing.seconds`).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from cardservice.clearing import repository
from cardservice.clearing.seconds import DISPUTE_KINDS, book_second
from cardservice.db.sql import Row, Tx, as_uuid
from cardservice.errors import NotFound, RuleViolation, ServiceError
from cardservice.models.base import utcnow
from cardservice.network import IssuedCard, issued_cards
from cardservice.transactions import (
    Authorization,
    Captures,
    ForcePost,
    Presentation,
    RefundMessage,
    credit_card,
    force_post,
    recapture,
    refund,
)

MATCHED, DUPLICATE, DIFFERENCE = "matched", "duplicate", "amount_difference"
FORCE_POSTED, REFUND, UNMATCHED = "force_posted", "refund", "unmatched"
MERCHANT_NAME_LENGTH = 120  # the transaction's column
# what a presentment's authorization is, by the record's kind (DE 3 `00…`, `01…`)
AUTHORIZED = {"purchase": "card_purchase", "atm": "atm_withdrawal"}


class RecordTaken(Exception):
    """A record of the unit was booked already: it rolls back, and the ingest fails (one
    ingest of a file at a time holds its lock, so only a lost lock lets this happen)."""


class Refused(Exception):
    """A record's entry refused it (`reason` as the report lists it); nothing of the record
    may stay: its unit rolls back."""

    def __init__(self, reason: str, transaction_uuid: uuid.UUID | None = None) -> None:
        super().__init__(reason)
        self.reason, self.transaction_uuid = reason, transaction_uuid


class SetRefused(Exception):
    """The unit's force posts, written together, were refused (a balance the database would
    not take below zero): the unit rolls back and is booked again one force post at a time,
    which names the record."""


class RecordRefused(Exception):
    """A record of the unit was refused: the unit rolls back and is booked again with the
    record as an exception of the report (`refused`), its neighbours as before."""

    def __init__(self, record_id: int, refusal: Refused) -> None:
        super().__init__(refusal.reason)
        self.record_id, self.refusal = record_id, refusal


@dataclass(frozen=True, slots=True)
class Outcome:
    outcome: str
    transaction_uuid: uuid.UUID | None = None
    reason: str | None = None
    authorized: int | None = None  # an amount difference's captured amount before
    clearing: str | None = None  # what `transaction_uuid` shows as its `clearing` (booked by it)


@dataclass(slots=True)
class Unit:
    """The records one unit books, what they name (read together, `read`) and what it still
    has to write for them. `refused`: records an earlier run of the unit found refused, by
    id, booked as exceptions without moving money; `one_at_a_time`: each force post written
    as it is decided (a set of one), not with the others."""

    file_uuid: uuid.UUID
    refused: Mapping[int, Refused] = field(default_factory=dict)
    one_at_a_time: bool = False
    cards: dict[str, IssuedCard | None] = field(default_factory=dict)  # by fingerprint
    # the latest authorization of each (card, approval code, type) the records name, as
    # read first
    authorizations: dict[repository.Named, Row] = field(default_factory=dict)
    moved: set[uuid.UUID] = field(default_factory=set)  # purchases a record of it booked
    outcomes: list[tuple[int, Outcome]] = field(default_factory=list)
    clearings: dict[uuid.UUID, str] = field(default_factory=dict)  # the last record's wins
    force_posts: list[tuple[int, ForcePost]] = field(default_factory=list)  # not written yet
    # the held authorizations the records name, locked (with their accounts and cards) at
    # `read`; their captures decided in turn and written together
    captures: Captures = field(default_factory=Captures)
    capture_records: list[int] = field(default_factory=list)  # the captures not written yet
    # the purchases the unit's purchase presentments booked, by ARN (the last record's)
    cleared: dict[str, uuid.UUID] = field(default_factory=dict)

    async def read(self, tx: Tx, records: Sequence[Row]) -> None:
        """The records' cards by number in one statement, then the authorizations their
        approval codes name in one more; the held ones locked, with their accounts and
        cards, in three more (`Captures.lock`)."""
        self.cards = await issued_cards(tx, {str(record["fingerprint"]) for record in records})
        named = set()
        for record in records:
            card = self.cards[str(record["fingerprint"])]
            type_ = AUTHORIZED.get(str(record["kind"]))
            if card is not None and type_ is not None and record["approval_code"]:
                named.add((card.card_uuid, str(record["approval_code"]), type_))
        self.authorizations = dict(await repository.authorizations(tx, named))
        held = [
            purchase for found in self.authorizations.values()
            if found["status"] == "pending" and (purchase := as_uuid(found["uuid"])) is not None
        ]  # fmt: skip
        await self.captures.lock(tx, held)

    async def authorization(
        self, tx: Tx, card: IssuedCard, approval_code: str, type_: str
    ) -> Row | None:
        """The card's authorization of `type_` with this code: as read first, or read again
        when a record before booked it in this unit (what the unit decided written first)."""
        found = self.authorizations.get((card.card_uuid, approval_code, type_))
        if found is not None and as_uuid(found["uuid"]) in self.moved:
            await self.write_sets(tx)
            found = await repository.authorization(tx, card.card_uuid, approval_code, type_)
        return found

    async def write_sets(self, tx: Tx) -> None:
        """Write what is decided and not written yet: before a record moves money outside
        the sets (a refund, a difference, a dispute's record) and at the end."""
        await self.write_captures(tx)
        await self.write_force_posts(tx)

    async def before_capture(self, tx: Tx, user: uuid.UUID) -> None:
        """The force posts not written yet, when one moves the user's money: a capture
        sees the money of the records before it."""
        await self.write_force_posts(tx, user)

    async def before_force_post(self, tx: Tx, user: uuid.UUID) -> None:
        """The captures not written yet, when one moves the user's money: a force post
        sees the money of the records before it."""
        if user in self.captures.users:
            await self.write_captures(tx)

    async def write_captures(self, tx: Tx) -> None:
        """Write the captures decided so far, together (`SetRefused` when the database
        refuses the set; `RecordRefused` for a set of one)."""
        records, self.capture_records = self.capture_records, []
        if not records:
            return
        try:
            await self.captures.write(tx)
        except ServiceError as error:
            if len(records) > 1:
                raise SetRefused(error.message) from error
            raise RecordRefused(records[0], Refused(f"refused: {error.message}")) from error

    async def write_force_posts(self, tx: Tx, user: uuid.UUID | None = None) -> None:
        """Write the force posts decided so far (with `user`: of that user's cards; the
        others' money is not theirs), together (`SetRefused` when the database refuses the
        set; `RecordRefused` for a set of one)."""
        posts: list[tuple[int, ForcePost]] = []
        kept: list[tuple[int, ForcePost]] = []
        for each in self.force_posts:
            (posts if user is None or each[1].user_uuid == user else kept).append(each)
        self.force_posts = kept
        if not posts:
            return
        try:
            await force_post(tx, [post for _record_id, post in posts])
        except ServiceError as error:
            if len(posts) > 1:
                raise SetRefused(error.message) from error
            raise RecordRefused(posts[0][0], Refused(f"refused: {error.message}")) from error

    async def flush(self, tx: Tx) -> None:
        """Write the captures, force posts, outcomes and clearings gathered so far
        (`RecordTaken` when one of the records was booked already: this unit must roll
        back)."""
        await self.write_sets(tx)
        if self.clearings:
            await repository.set_clearings(tx, self.clearings)
            self.clearings = {}
        if self.outcomes:
            rows = [
                (record_id, o.outcome, o.reason, o.transaction_uuid, o.authorized)
                for record_id, o in self.outcomes
            ]
            booked = await repository.book_many(tx, rows, utcnow())
            if booked != len(rows):
                raise RecordTaken(str(rows[0][0]))
            self.outcomes = []


def clearing_json(file_uuid: uuid.UUID, record: Row) -> str:
    """What a transaction booked by the record shows as its `clearing`."""
    return orjson.dumps(
        {"file_uuid": str(file_uuid), "message_number": int(record["message_number"]),
         "arn": record["arn"]}
    ).decode()  # fmt: skip


async def book_records(
    tx: Tx,
    file_uuid: uuid.UUID,
    records: Sequence[Row],
    refused: Mapping[int, Refused] | None = None,
    *,
    one_at_a_time: bool = False,
) -> None:
    """Book the records in their order and write their outcomes in the same unit: what they
    name is read first, together (`Unit.read`); each record is decided once, through its
    entry; the force posts are written together before another record moves money and at
    the end, and so are the outcomes and the captured transactions' `clearing` (a force post
    is written with its own).
    `RecordTaken`: one was booked already (the unit rolls back, the ingest fails);
    `RecordRefused`: an entry refused one — the unit rolls back and the caller books it
    again; `SetRefused`: the force posts written together were refused — the caller books
    the unit again `one_at_a_time`. `refused`: records found refused by an earlier run,
    booked as exceptions. A refund presentment with an ARN reads the outcomes of the records
    before it: they are written first."""
    unit = Unit(file_uuid, refused or {}, one_at_a_time)
    await unit.read(tx, records)
    for record in records:
        outcome = await _decided(tx, unit, record)
        unit.outcomes.append((int(record["id"]), outcome))
        if outcome.clearing is not None and outcome.transaction_uuid is not None:
            unit.clearings[outcome.transaction_uuid] = outcome.clearing
        if outcome.transaction_uuid is not None:
            unit.moved.add(outcome.transaction_uuid)
            if record["kind"] == "purchase" and record["arn"] and outcome.outcome != UNMATCHED:
                unit.cleared[str(record["arn"])] = outcome.transaction_uuid
    await unit.flush(tx)


async def _decided(tx: Tx, unit: Unit, record: Row) -> Outcome:
    """The record's outcome: an exception when a run before found it refused, else what its
    entry booked (`RecordRefused` when the entry refuses it: a refusal in the rules'
    words, any of the service's errors)."""
    record_id = int(record["id"])
    earlier = unit.refused.get(record_id)
    if earlier is not None:
        return Outcome(UNMATCHED, earlier.transaction_uuid, earlier.reason)
    try:
        return await _outcome(tx, unit, record)
    except Refused as refusal:
        raise RecordRefused(record_id, refusal) from refusal
    except ServiceError as error:
        raise RecordRefused(record_id, Refused(f"refused: {error.message}")) from error


async def _outcome(tx: Tx, unit: Unit, record: Row) -> Outcome:
    if record["kind"] in DISPUTE_KINDS:  # a dispute's record: matched by its ARN alone
        await unit.write_sets(tx)
        outcome, reason, purchase = await book_second(tx, unit.file_uuid, record)
        return Outcome(outcome, as_uuid(purchase), reason)
    card = unit.cards[str(record["fingerprint"])]
    if card is None:
        return Outcome(UNMATCHED, reason="unknown card")
    if not str(record["currency"]).isalpha():
        return Outcome(UNMATCHED, reason=f"unknown currency {record['currency']} (DE 49)")
    clearing = clearing_json(unit.file_uuid, record)
    if record["kind"] == "refund":
        return await _refund(tx, unit, card, record, clearing)
    code, type_ = record["approval_code"], AUTHORIZED[str(record["kind"])]
    found = await unit.authorization(tx, card, str(code), type_) if code else None
    if found is not None and found["status"] == "pending":
        await unit.before_capture(tx, card.user_uuid)
        matched = await _capture(tx, unit, found, record, clearing)
        if matched is not None:
            return matched
        # it stopped being held before its lock was taken: read again, under the lock
        found = await repository.authorization(tx, card.card_uuid, str(code), type_)
    if found is not None and found["status"] in ("completed", "refunded"):
        await unit.write_sets(tx)  # what the record moves sees the money before it
        return await _captured_before(tx, found, record, clearing)
    await unit.before_force_post(tx, card.user_uuid)
    return await _force_post(tx, unit, card, record, clearing, type_)


def _same_currency(found: Row, record: Row) -> bool:
    """The presentment is in the currency the authorization was (the merchant's)."""
    return bool(record["currency"] == (found["merchant_currency"] or found["currency"]))


async def _capture(tx: Tx, unit: Unit, found: Row, record: Row, clearing: str) -> Outcome | None:
    """A held authorization captured with the presented amount, with the unit's other
    captures (`Unit.captures`; at once `one_at_a_time`); None when it stopped being held
    before its lock was taken (a force post then)."""
    purchase = as_uuid(found["uuid"])
    assert purchase is not None
    if not _same_currency(found, record):
        return Outcome(UNMATCHED, purchase, "currency differs from the authorization's")
    if await unit.captures.capture(tx, purchase, int(record["amount"]), utcnow()) is None:
        return None  # nothing decided: released meanwhile
    unit.capture_records.append(int(record["id"]))
    if unit.one_at_a_time:
        await unit.write_captures(tx)
    return Outcome(MATCHED, purchase, clearing=clearing)


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
    except RuleViolation as refusal:  # refunded, or less than was given back
        raise Refused(f"amount differs: {refusal.message}", purchase) from refusal
    authorized = before if not foreign else captured
    return Outcome(DIFFERENCE, purchase, authorized=authorized, clearing=clearing)


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
    tx: Tx, unit: Unit, card: IssuedCard, record: Row, clearing: str, type_: str
) -> Outcome:
    """A presentment with no authorization held for it: a new purchase (or ATM withdrawal,
    `type_`, with its own approval fee) the network approved for the issuer, captured at
    once (what the card cannot cover is its `shortfall`), written with `clearing` (the
    record) as the row and its `transaction.created` show it — with the unit's other force
    posts (`Unit.write_force_posts`), or at once `one_at_a_time`."""
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
        presentation=Presentation(
            "clearing", token=card.paid_with, stand_in=True, captured=True, clearing=clearing
        ),
        type=type_,
    )
    unit.force_posts.append((int(record["id"]), ForcePost(card.user_uuid, request)))
    if unit.one_at_a_time:
        await unit.write_force_posts(tx)
    return Outcome(FORCE_POSTED, request.uuid)


async def _refund(tx: Tx, unit: Unit, card: IssuedCard, record: Row, clearing: str) -> Outcome:
    """A refund presentment: the clearing of an online refund of the purchase cleared with
    its ARN (a duplicate), or a refund of that purchase when it can take it, else a credit to
    the card. The purchase: the last a purchase presentment with the ARN booked, in this
    unit or in one committed before. What the unit decided and did not write yet is written
    first: all of it for a refund of a purchase, the card's user's for a credit."""
    credit = uuid.uuid4()
    arn = record["arn"]
    purchase = unit.cleared.get(str(arn)) if arn else None
    if arn and purchase is None:
        purchase = await repository.cleared_by_arn(tx, arn)
    if purchase is not None:
        await unit.write_sets(tx)
    else:
        await unit.before_capture(tx, card.user_uuid)
        await unit.before_force_post(tx, card.user_uuid)
    if purchase is not None:
        online = await repository.clear_online_refund(
            tx, purchase, int(record["amount"]), str(record["currency"]), clearing
        )
        if online is not None:
            return Outcome(DUPLICATE, online)
        try:
            columns = {"uuid": credit, "clearing": clearing}
            message = RefundMessage(purchase, int(record["amount"]), "clearing", columns)
            await refund(tx, card.user_uuid, message)
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
        raise Refused(f"refund not booked: {refusal.message}") from refusal
    return Outcome(REFUND, as_uuid(row["uuid"]))
