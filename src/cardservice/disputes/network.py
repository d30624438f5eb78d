"""A dispute's steps through the network (docs/disputes.md): the chargeback in the issuer's
outgoing file, the merchant's second presentment in an incoming one, the operator's accept or
escalate, the 45-day sweep, the holder's withdraw, and the outcome that ends any of them.

Every step locks the dispute's row, checks its status, moves its money (`disputes.money`, one
entry), appends to its `history` and sets its `deadline`; every step is one `dispute.updated`
event: a change of `status` its trigger's (docs/events.md), the two steps that keep the
status (the 451 sent, the acquirer's decline) written here (`repository.record_updated`).
A step that needs the card (an outcome) takes the purchase's account, card and row first
(the lock order of docs/ledger.md), then the dispute's; the network's steps (chargeback,
representment) move no card and take the dispute's row alone.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import orjson

from cardservice.db.sql import Row, Tx, as_datetime, as_uuid, iso_z
from cardservice.disputes import money, repository
from cardservice.disputes.records import DISPUTE_FIELDS, REASON_CODES
from cardservice.errors import DisputeNotFound, RuleViolation
from cardservice.models.dispute import ACTIVE_STATUSES
from cardservice.transactions import Purchase, credited_amount, lock_purchase, purchase_arn

ANSWER_WINDOW = timedelta(days=45)  # the other side's answer is due (docs/disputes.md#deadlines)
FIRST, PARTIAL, PRE_ARBITRATION = "450", "453", "451"  # DE 24 of a 1442


class DisputeAlreadyResolved(RuleViolation):
    code, message = "dispute_already_resolved", "The dispute is already resolved."


class DisputeWrongStatus(RuleViolation):
    status_code, code = 409, "dispute_wrong_status"
    message = "The dispute is not in a status that allows this step."


def arn_of(purchase: Any) -> str:
    """The ARN a chargeback names: the presentment's (DE 31 of the clearing record that booked
    the purchase), else the one the service made for its online capture."""
    clearing = purchase["clearing"]
    if clearing is not None and (arn := orjson.loads(clearing).get("arn")):
        return str(arn)
    return purchase_arn(purchase["uuid"], purchase["created_at"])


def _step(dispute: dict[str, Any], status: str, now: datetime, deadline: datetime | None) -> None:
    """The dispute moves to `status` at `now` (one more `history` entry)."""
    history = orjson.loads(dispute["history"] or "[]")
    history.append({"status": status, "at": iso_z(now)})
    dispute.update(
        status=status, updated_at=now, deadline_at=deadline, history=orjson.dumps(history).decode()
    )


def _fields(row: Row) -> dict[str, Any]:
    return {name: row[i] for i, name in enumerate(DISPUTE_FIELDS)}


async def _locked(
    tx: Tx, dispute_uuid: uuid.UUID, user_uuid: uuid.UUID | None = None
) -> tuple[Purchase, dict[str, Any]]:
    """The dispute's purchase (account, card and row locked) and the dispute (row locked);
    with `user_uuid`, only that user's (else 404)."""
    owner = await repository.dispute_owner(tx, dispute_uuid)
    if owner is None or (user_uuid is not None and as_uuid(owner["user_uuid"]) != user_uuid):
        raise DisputeNotFound()
    user, purchase_uuid = as_uuid(owner["user_uuid"]), as_uuid(owner["transaction_uuid"])
    assert user is not None and purchase_uuid is not None
    purchase, _status = await lock_purchase(tx, user, purchase_uuid)
    row = await repository.lock_dispute(tx, dispute_uuid)
    assert row is not None
    return purchase, _fields(row)


async def decide(
    tx: Tx, purchase: Purchase, dispute: dict[str, Any], outcome: str, now: datetime
) -> dict[str, Any]:
    """The dispute ends `won`, `lost` or `withdrawn` (its row and purchase locked): its money
    settled (`money.win`, `money.take_back`), nothing left to send."""
    _step(dispute, outcome, now, None)
    dispute.update(resolved_at=now, to_send=None)
    if outcome == "won":
        left = money.disputable_amount(purchase, await credited_amount(tx, purchase.uuid))
        dispute["credit_transaction_uuid"] = await money.win(tx, purchase, dispute, left, now)
    else:
        await money.take_back(tx, purchase, dispute, now)
    await repository.save(tx, dispute)
    return dispute


def _require(dispute: dict[str, Any], *statuses: str) -> None:
    if dispute["status"] not in statuses:
        raise DisputeWrongStatus(
            f"The dispute is {dispute['status']}; this step needs {' or '.join(statuses)}."
        )


async def withdraw_dispute(
    tx: Tx, user_uuid: uuid.UUID, dispute_uuid: uuid.UUID, now: datetime
) -> dict[str, Any]:
    """The holder withdraws their dispute while `open` or `chargeback_sent` (anybody else's:
    404; another status: 409): the provisional credit and the claim go back."""
    purchase, dispute = await _locked(tx, dispute_uuid, user_uuid)
    _require(dispute, "open", "chargeback_sent")
    return await decide(tx, purchase, dispute, "withdrawn", now)


def _declined(dispute: dict[str, Any]) -> bool:
    """The acquirer declined the dispute's pre-arbitration."""
    pre = dispute["pre_arbitration"]
    return pre is not None and orjson.loads(pre).get("answer") == "declined"


async def accept_dispute(tx: Tx, dispute_uuid: uuid.UUID, now: datetime) -> dict[str, Any]:
    """The operator accepts the merchant's second presentment, or the acquirer's decline of
    the pre-arbitration: `lost`."""
    purchase, dispute = await _locked(tx, dispute_uuid)
    if not (dispute["status"] == "pre_arbitration" and _declined(dispute)):
        _require(dispute, "representment_received")
    return await decide(tx, purchase, dispute, "lost", now)


async def escalate_dispute(tx: Tx, dispute_uuid: uuid.UUID, now: datetime) -> dict[str, Any]:
    """The operator escalates after a second presentment: `pre_arbitration`, a 1442 `451` in
    the next outgoing file (its money moves when that file is written)."""
    _purchase, dispute = await _locked(tx, dispute_uuid)
    _require(dispute, "representment_received")
    _step(dispute, "pre_arbitration", now, now)
    dispute["to_send"] = PRE_ARBITRATION
    await repository.save(tx, dispute)
    return dispute


async def resolve_active(
    tx: Tx, user_uuid: uuid.UUID, dispute_uuid: uuid.UUID, outcome: str, now: datetime
) -> dict[str, Any]:
    """The sandbox's network ends one of the user's disputes not decided yet."""
    purchase, dispute = await _locked(tx, dispute_uuid, user_uuid)
    if dispute["status"] not in ACTIVE_STATUSES:
        raise DisputeAlreadyResolved(f"The dispute was already {dispute['status']}.")
    return await decide(tx, purchase, dispute, outcome, now)


@dataclass(frozen=True, slots=True)
class Chargeback:
    """A 1442 of the outgoing file, as `clearing.ipm` writes it."""

    message_number: int  # DE 71
    function: str  # DE 24: 450 | 453 | 451
    pan: str  # DE 2: the card's number, or the DPAN of the wallet token that paid
    amount: int  # DE 4, minor units of `currency`
    currency: str  # alphabetic; DE 49 is its numeric code
    reason_code: str  # DE 25
    arn: str  # DE 31


def _sent(file_id: str, number: int, now: datetime) -> str:
    return orjson.dumps(
        {"file_id": file_id, "message_number": number, "sent_at": iso_z(now)}
    ).decode()


async def take_outgoing(
    tx: Tx, file_id: str, decrypt: Callable[[bytes], str], now: datetime
) -> list[Chargeback]:
    """The 1442s of the outgoing file `file_id`, message numbers from 2 (the header is 1):
    every dispute waiting to be sent, oldest first, each moved as sent (`chargeback_sent`, or
    its pre-arbitration marked sent) with its claim on the network, in this unit — the
    claims' entries in one statement, the disputes' rows in another."""
    items, disputes, claims, pre_sent = [], [], [], []
    rows = await repository.to_send(tx)
    # DE 2 is the number the purchase was paid with: a wallet token's DPAN, else the card's
    tokens = {row["uuid"]: _token_uuid(row["token"]) for row in rows if row["token"]}
    dpans = await repository.dpans(tx, sorted(set(tokens.values()), key=str))
    numbers: dict[bytes, str] = {}  # each number decrypted once
    for number, row in enumerate(rows, start=2):
        dispute, function = _fields(row), str(row["to_send"])
        if function == PRE_ARBITRATION:
            amount = int(orjson.loads(dispute["representment"])["amount"])
            claims.append((dispute, amount, "dispute_pre_arbitration"))
            dispute.update(pre_arbitration=_sent(file_id, number, now), updated_at=now)
            dispute["deadline_at"] = now + ANSWER_WINDOW
            pre_sent.append((row["uuid"], row["user_uuid"]))
        else:
            amount = int(dispute["amount"])
            claims.append((dispute, amount, "dispute_chargeback"))
            dispute["chargeback"] = _sent(file_id, number, now)
            _step(dispute, "chargeback_sent", now, now + ANSWER_WINDOW)
        dispute["to_send"] = None
        disputes.append(dispute)
        token = tokens.get(row["uuid"])
        ciphertext = dpans[token] if token is not None else bytes(row["pan_ciphertext"])
        if ciphertext not in numbers:
            numbers[ciphertext] = decrypt(ciphertext)
        items.append(
            Chargeback(number, function, numbers[ciphertext], amount, str(dispute["currency"]),
                       REASON_CODES[str(dispute["reason"])], str(dispute["arn"]))
        )  # fmt: skip
    await money.claim_all(tx, claims)
    await repository.save_all(tx, disputes)
    await repository.record_updated(tx, pre_sent, now)  # still `pre_arbitration`
    return items


def _token_uuid(token: str) -> uuid.UUID:
    found = as_uuid(orjson.loads(token)["uuid"])
    assert found is not None
    return found


@dataclass(frozen=True, slots=True)
class Answer:
    """What a second presentment did: `representment` (booked), `unmatched` or `exception`
    (nothing moved), with the reason and the disputed purchase."""

    outcome: str
    reason: str | None = None
    transaction_uuid: uuid.UUID | None = None


@dataclass(frozen=True, slots=True)
class SecondPresentment:
    """A 1240 `205`/`282` of an incoming file, as the ingest stages it."""

    arn: str
    amount: int
    currency: str  # alphabetic
    file_id: str
    message_number: int
    message: str | None


async def receive_representment(tx: Tx, item: SecondPresentment, now: datetime) -> Answer:
    """The merchant's answer to a chargeback, matched by ARN: the dispute moves to
    `representment_received` and the amount goes back to the network. No chargeback waiting
    for an answer (an unknown ARN, a dispute decided or not yet charged back): `unmatched`;
    more than the chargeback claimed: an `exception`. Either moves nothing."""
    found = await repository.by_arn(tx, item.arn)
    if found is None:
        return Answer("unmatched", "no chargeback")
    row = await repository.lock_dispute(tx, as_uuid(found[0]))  # type: ignore[arg-type]
    assert row is not None
    dispute = _fields(row)
    purchase = as_uuid(dispute["transaction_uuid"])
    if dispute["status"] != "chargeback_sent" or dispute["to_send"] is not None:
        return Answer("unmatched", "no chargeback", purchase)
    if item.currency != dispute["currency"]:
        return Answer("exception", "currency differs from the chargeback's", purchase)
    if item.amount > int(dispute["amount"]):
        return Answer("exception", "amount above the chargeback", purchase)
    await money.give_back(tx, dispute, item.amount)
    dispute["representment"] = orjson.dumps(
        {"file_id": item.file_id, "message_number": item.message_number, "amount": item.amount,
         "received_at": iso_z(now), "message": item.message}
    ).decode()  # fmt: skip
    _step(dispute, "representment_received", now, now + ANSWER_WINDOW)
    await repository.save(tx, dispute)
    return Answer("representment", None, purchase)


@dataclass(frozen=True, slots=True)
class PreArbitrationAnswer:
    """The acquirer's answer to a 451 (1644 `640` accepted / `641` declined), as the ingest
    stages it."""

    arn: str
    accepted: bool
    file_id: str
    message_number: int
    message: str | None


async def receive_pre_arbitration_answer(
    tx: Tx, item: PreArbitrationAnswer, now: datetime
) -> Answer:
    """The acquirer's answer to the dispute's pre-arbitration, matched by ARN: accepted, the
    dispute is `won`; declined, it stays `pre_arbitration` for the operator to accept (`lost`)
    or take to the network's arbitration (the sandbox's resolve), due in 45 days. No
    pre-arbitration sent and unanswered under that ARN: `unmatched`, nothing moves."""
    found = await repository.by_arn(tx, item.arn)
    if found is None:
        return Answer("unmatched", "no pre-arbitration")
    purchase, dispute = await _locked(tx, as_uuid(found[0]))  # type: ignore[arg-type]
    pre = orjson.loads(dispute["pre_arbitration"] or "null")
    waiting = dispute["status"] == "pre_arbitration" and dispute["to_send"] is None
    if not waiting or pre is None or "answer" in pre:
        return Answer("unmatched", "no pre-arbitration", purchase.uuid)
    pre.update(
        answer="accepted" if item.accepted else "declined", answered_at=iso_z(now),
        answer_file_id=item.file_id, answer_message_number=item.message_number,
        answer_message=item.message,
    )  # fmt: skip
    dispute["pre_arbitration"] = orjson.dumps(pre).decode()
    if item.accepted:
        await decide(tx, purchase, dispute, "won", now)
    else:
        dispute.update(updated_at=now, deadline_at=now + ANSWER_WINDOW)
        await repository.save(tx, dispute)
        await repository.record_updated(tx, [(dispute["uuid"], found["user_uuid"])], now)
    return Answer("answered", None, purchase.uuid)


async def win_if_unanswered(tx: Tx, dispute_uuid: uuid.UUID, now: datetime) -> bool:
    """A chargeback or pre-arbitration unanswered at its deadline is `won` (False: it was
    answered or decided meanwhile)."""
    purchase, dispute = await _locked(tx, dispute_uuid)
    deadline = dispute["deadline_at"]
    due = dispute["status"] in ("chargeback_sent", "pre_arbitration") and not dispute["to_send"]
    due = due and not _declined(dispute)  # then the operator decides
    if not due or deadline is None or _at(deadline) > now:
        return False
    await decide(tx, purchase, dispute, "won", now)
    return True


def _at(value: Any) -> datetime:
    moment = as_datetime(value)
    assert moment is not None
    return moment
