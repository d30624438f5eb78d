"""0100 authorizations and 0120 stand-in advices (docs/network.md#the-network-interface-iso-8583,
docs/network.md#a-channel-that-can-be-trusted), each in one unit whose first statement reads the
card of the number with its account and then itself locked (with its user's fees, decision endpoint
and the merchant's tag), the message's key and the merchant's block
(`repository.locked_card_and_key`): a repeat answers its first answer; a merchant the card-testing
guard blocked answers `59` at once; otherwise the card is verified, then the sandbox's entry
(`transactions.authorize_opened`, this host's first step its opening, the account and the card
already locked) decides and records — the card's state before its details, which are never compared
on a card that is not active; the guard counts a verification failure there, under the card's lock —
and the answer is written with the message's key in the unit that records it (with a decision
endpoint to ask, a second unit of the same entry). An unknown number records nothing but counts
against its merchant and its BIN; while the guard locks a BIN, a number of it sent without 48.92
answers `N7` (an unknown one whatever 48.92 says) and touches no card (docs/network.md, "BIN lock").

Field 2 may be a wallet token's DPAN (docs/network.md#wallet-tokens): the vault resolves it to its
card before the entry, so every rule, limit, control, fee, event and webhook of a card payment
applies; 14 must be the token's expiry (a verification failure as a card's), a suspended token (or
one waiting for its activation) is declined `token_inactive` (`62`, whatever 14 says), a deleted
one is an unknown number (`14`) — but an 0120 advice on it is recorded on its card, as a
clearing presentment on it is booked there. An 0100 with processing code 900000 is a
wallet's provisioning request (provisioning.py); one with `01xxxx` an ATM withdrawal, which
needs field 52 (without it `55`, remembered under its key, nothing recorded;
docs/cards.md#atm-withdrawals).
Field 52's PIN and field 22's entry mode are facts of the request the engine reads
(docs/cards.md#pin-in-iso-8583)."""

from __future__ import annotations

import uuid
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from cardservice.db import deadlines
from cardservice.db.sql import Tx
from cardservice.errors import RuleViolation
from cardservice.models.base import utcnow
from cardservice.network import repository
from cardservice.network.codec import (
    MerchantPlace,
    Message,
    available_balance,
    merchant_place,
    sub_elements,
)
from cardservice.network.fields import (
    CURRENCIES,
    CVV2,
    NUMERIC_CURRENCIES,
    PROVISIONING,
    PURCHASE,
    THREE_DS_CODE,
    is_withdrawal,
)
from cardservice.network.host import (
    ANSWER_WITHIN,
    ATTEMPTS,
    REVERSAL_MEMORY,
    Answer,
    Host,
    Malformed,
    key_of,
    log,
    masked_pan,
    require,
)
from cardservice.network.provisioning import provisioning_request
from cardservice.network.repository import IssuedCard, Key, KeyTaken, Opening, Remembered
from cardservice.network.responses import (
    APPROVED,
    CVV2_MISMATCH,
    INSUFFICIENT_FUNDS,
    INVALID_PIN,
    SUSPECTED_FRAUD,
    UNKNOWN_CARD,
    code_of,
)
from cardservice.network.verification import (
    entry_mode,
    pin_presented,
    token_verification_failure,
    unknown_number,
    verification_failure,
)
from cardservice.observability import metrics
from cardservice.transactions import (
    Answered,
    Authorization,
    Opened,
    Presentation,
    Recorded,
    ReversalMessage,
    Then,
    authorize_opened,
    card_balance,
    card_testing,
    reverse,
)
from cardservice.transactions.card_testing import BinLock, Merchant


def network_data(message: Message, auth_code: str | None) -> dict[str, str | None]:
    """What the transaction shows of the network
    (docs/network.md#the-network-interface-iso-8583)."""

    def stripped(number: int) -> str | None:
        return message.fields.get(number, "").strip() or None

    return {
        "stan": message.fields[11],
        "rrn": stripped(37),
        "acquirer_id": message.fields[32],
        "terminal_id": stripped(41),
        "merchant_id": stripped(42),
        "auth_code": auth_code,
    }


def auth_code(transaction: uuid.UUID) -> str:
    """The authorization code (38) the service gives: six characters of the uuid."""
    return transaction.hex[:6].upper()


def acceptor(message: Message) -> Merchant:
    """The merchant the card-testing guard counts: the pair (32, 42)."""
    return Merchant(message.fields[32].rjust(11, "0"), message.fields.get(42, "").strip())


def _merchant_name(message: Message, place: MerchantPlace | None) -> str:
    """The merchant of 43 (its name, `place`), else the acceptor's id of 42."""
    return (place.name if place else "") or message.fields.get(42, "").strip() or "Card acceptor"


def _request(
    message: Message,
    card: IssuedCard,
    wanted: Opening,
    place: MerchantPlace | None,
    verification: str | None,
    stand_in: bool,
    pin_pvv: str | None = None,
) -> Authorization:
    """The entry's request: amount and currency of 4 and 49, merchant of 43 (`place`, read
    once a message; `wanted.tag`: its tag, by name; `wanted.merchant`: its acceptor), MCC of
    18, the 3DS code of 48.41, the verification's result, the entry mode of 22 and the PIN of
    52 as its PVV (`pin_pvv`); a stand-in keeps the network's code of 38."""
    amount = int(message.fields[4])
    if amount <= 0:
        raise Malformed("amount must be positive")
    transaction = uuid.uuid4()
    elements = sub_elements(message.fields.get(48, "")) or {}
    inactive = not stand_in and card.token is not None and card.token.status != "active"
    code = message.fields.get(38, "").strip() or None if stand_in else auth_code(transaction)
    return Authorization(
        card_uuid=card.card_uuid,
        amount=amount,
        currency=CURRENCIES.get(message.fields[49], message.fields[49]),
        merchant_name=_merchant_name(message, place),
        merchant_id=message.fields.get(42, "").strip() or None,
        mcc=message.fields.get(18),
        merchant_country=place.country if place else None,
        merchant_city=place.city if place else None,
        tag=wanted.tag,
        three_ds_code=None if stand_in else elements.get(THREE_DS_CODE),
        uuid=transaction,
        type="atm_withdrawal" if is_withdrawal(message.fields[3]) else "card_purchase",
        presentation=Presentation(
            "iso8583",
            network_data(message, code),
            card.paid_with,
            stand_in=stand_in,
            verification=verification,
            acceptor=wanted.merchant,  # `acceptor(message)`
            token_inactive=inactive,
            # presented by its number and details, which anyone who knows them can send
            charged_declines=None if stand_in else card_testing.CHARGED_DECLINES,
            entry_mode=entry_mode(message),
            pin_pvv=pin_pvv,
        ),
    )


def _currency_of(row: dict[str, Any]) -> str:
    """An authorization's own currency (its 49): the merchant's, when it was converted."""
    return str(row.get("merchant_currency") or row["currency"])


def _waiting(found: Remembered | None) -> Remembered | None:
    """A reversal (not older than 24 h) waiting for this original."""
    if found is None or utcnow() - found.created_at > REVERSAL_MEMORY:
        return None
    return found


async def _answered(
    tx: Tx, key: Key, card: IssuedCard, recorded: Recorded, waiting: Remembered | None
) -> Answer:
    """The answer of a recorded authorization, written with its key. An original a reversal
    was waiting for is answered as usual and released at once (shrunk, for a partial one),
    when the reversal was for this card and in its currency."""
    row, balance = recorded.row, recorded.card_balance
    paying = row["card_uuid"]  # a token's payment may be booked on its card's replacement
    closed = row.get("error_slug") == "card_closed"
    code = code_of(row, await repository.closed_reason(tx, paying) if closed else None)
    if (
        waiting is not None
        and code == APPROVED
        and waiting.answer.get("card") == str(card.card_uuid)
        and waiting.answer.get("currency") in (None, _currency_of(row))
    ):
        stays = waiting.answer.get("stays")
        partial = stays if isinstance(stays, int) and stays > 0 else None
        await reverse(tx, row["user_uuid"], ReversalMessage(row["uuid"], "iso8583", partial))
        balance = await card_balance(tx, paying)  # what the release gave back
    own = {"39": code}
    network = row.get("network_data") or {}
    if code == APPROVED and network.get("auth_code"):
        own["38"] = network["auth_code"]
    if code in (APPROVED, INSUFFICIENT_FUNDS):
        # the card's balance after everything this unit did (its charge, an auto-replenish:
        # what the entry returned; the release of a waiting reversal: read again)
        currency = NUMERIC_CURRENCIES.get(recorded.card_currency, "000")
        own["54"] = available_balance(currency, balance)
    await repository.remember(
        tx, key, row["uuid"], code, own, utcnow(), waiting=waiting is not None, with_commit=True
    )
    return own


@dataclass(slots=True)
class _Answers:
    """What the unit that records an authorization tells its attempt: the answers written
    with the key, and whether a reversal was waiting for it (released in that unit)."""

    given: list[Answer] = field(default_factory=list)
    waiting: bool = False


@dataclass(frozen=True, slots=True)
class _Counted:
    """An unknown number's answer (nothing recorded), and the BIN lock it began, announced
    once its unit committed."""

    answer: Answer
    lock: BinLock | None


def _then(
    key: Key, card: IssuedCard, request: Authorization, waiting: Remembered | None,
    answers: list[Answer],
) -> Then:  # fmt: skip
    """What the unit that records the answer does with its row: write the key with it."""

    async def then(tx: Tx, recorded: Recorded) -> None:
        recorded.row["network_data"] = request.presentation.network
        answers.append(await _answered(tx, key, card, recorded, waiting))

    return then


async def _opening(
    host: Host,
    tx: Tx,
    message: Message,
    wanted: Opening,
    place: MerchantPlace | None,
    stand_in: bool,
    answers: _Answers,
) -> Opened | Answered[Answer | _Counted]:
    """The host's first step in the entry's unit 1 (`transactions.authorize_opened`): the card
    of the number with its account locked, then the card itself locked with its user's fees,
    decision endpoint and the merchant's `tag`, the key, the merchant's block and the BIN's
    lock in one statement; then a repeat's first answer, a blocked merchant's `59`, an unknown
    number's `14` (`N7` in a locked BIN), a locked BIN's `N7` — or the authorization to
    answer, with its account and card locked already and its key written with the answer (a
    lane's unit may have read it with its neighbours': `wanted.take`)."""
    key, merchant, pan, now = wanted.key, wanted.merchant, message.fields[2], utcnow()
    opened = wanted.take(tx) or await repository.locked_card_and_key(tx, wanted)
    card, found = opened.card, opened.found
    if opened.locked is not None:
        host.seen(wanted.fingerprint, opened.locked.account["uuid"])
    if found is not None and found.response_code is not None:
        return Answered(found.answer)  # a repeat: the first answer, nothing moves
    bin_locked = not stand_in and card_testing.bin_locked(opened.bin_locked_until, now)
    if not stand_in and card_testing.merchant_blocked(opened.blocked_until, now):
        return Answered(await _refused(tx, key, found, SUSPECTED_FRAUD))
    if card is None and stand_in:
        log.warning("ISO 8583 0120 for a card not issued here: pan %s", masked_pan(message))
        return Answered({"39": APPROVED})
    if card is None:
        return Answered(await _unknown_number(tx, pan, merchant, now))
    # a deleted token's advice is recorded on its card, as its presentment is booked there
    # (docs/network.md): the network charged the card, whatever the issuer answers
    if card.token is not None and card.token.status == "deleted" and not stand_in:
        await card_testing.note_merchant_failure(tx, merchant, now)  # nothing recorded
        return Answered({"39": UNKNOWN_CARD})
    if bin_locked and card.token is None and _cvv2(message) is None:
        return Answered(await _refused(tx, key, found, CVV2_MISMATCH))
    if not stand_in and is_withdrawal(message.fields[3]) and 52 not in message.fields:
        return Answered(await _refused(tx, key, found, INVALID_PIN))  # cash needs a PIN
    verification = pin_pvv = None
    if card.token is not None and not stand_in:
        verification = token_verification_failure(message, card.token)
    elif not stand_in:
        verification = verification_failure(host.cipher, message, card)
    if not stand_in:  # an advice's PIN was the network's to verify
        pin_pvv = pin_presented(host.cipher, message, card)
    request = _request(message, card, wanted, place, verification, stand_in, pin_pvv)
    reversal = _waiting(found)
    answers.waiting = reversal is not None
    then = _then(key, card, request, reversal, answers.given)
    return Opened(card.user_uuid, request, opened.locked, then)


def _cvv2(message: Message) -> str | None:
    return (sub_elements(message.fields.get(48, "")) or {}).get(CVV2)


async def _refused(tx: Tx, key: Key, found: Remembered | None, code: str) -> Answer:
    """The guard's answer before any card is touched (a blocked merchant's `59`, a locked
    BIN's `N7`): remembered under the key, nothing recorded, no card's count changed."""
    refused = {"39": code}
    await repository.remember(tx, key, None, code, refused, utcnow(), waiting=found is not None)
    return refused


async def _unknown_number(tx: Tx, pan: str, merchant: Merchant, now: datetime) -> _Counted:
    """A number of no card: nothing recorded; its merchant's count grows, and its BIN's
    (more than 20 within 10 minutes lock the BIN). `14`; `N7` in a locked BIN, whatever
    48.92 says: there, `14` would tell the numbers of no card from those of cards."""
    counted = await unknown_number(tx, pan, merchant, now)
    return _Counted({"39": CVV2_MISMATCH if counted.locked else UNKNOWN_CARD}, counted.began)


async def _attempt(host: Host, message: Message, key: Key, stand_in: bool) -> Answer | None:
    """One try at answering; None when another unit took the key meanwhile (look again)."""
    place = merchant_place(message.fields)  # field 43, read once a message
    tag = await host.tag_of(_merchant_name(message, place))
    answers = _Answers()
    deadline = None if stand_in else deadlines.current()  # an advice is sent until taken
    # (every unit below stops at its next statement once the listener answered `91`)
    fingerprint = host.cipher.fingerprint(message.fields[2])  # once a message: an HMAC
    pan = message.fields[2]
    wanted = Opening(fingerprint, key, acceptor(message), card_testing.bin_of(pan), tag)

    async def opening(tx: Tx) -> Opened | Answered[Answer | _Counted]:
        return await _opening(host, tx, message, wanted, place, stand_in, answers)

    try:
        group = await host.group_of(fingerprint)
        first = await authorize_opened(
            host.db, host.http, host.cipher, opening, allow_private=host.allow_private,
            answer_within=ANSWER_WITHIN,
            # with the queued, their first statements read as one (`Opening`)
            unit=lambda work: host.batches.transact(host.db, group, work, wanted),
        )  # fmt: skip
    except KeyTaken:
        return None
    except Exception as error:  # the key's row, written with the COMMIT, was another's
        if repository.key_taken(error):
            return None
        raise
    if isinstance(first, _Counted):
        if first.lock is not None:
            card_testing.announce(first.lock)  # committed
        return first.answer
    if not isinstance(first, Recorded):
        return first
    metrics.count_authorization(first.row["status"], first.row["error_slug"])  # once committed
    late = deadline is not None and not deadline.claim() and not answers.waiting
    if late and answers.given[-1]["39"] == APPROVED:  # a late decline moved no money: kept
        await _release_late(host, key, first.row)
    return answers.given[-1]


async def _release_late(host: Host, key: Key, row: dict[str, Any]) -> None:
    """An approval recorded after the listener answered `91` at its deadline (its COMMIT
    waited, e.g. for the synchronous standby of a leader just promoted): `91` says nothing
    was recorded, so the hold is released and the key forgotten (a repeat is a new request),
    as a network's late-response reversal would. A reversal or a capture that came meanwhile
    has settled it already; if the database is gone again the hold stays until it expires
    (logged). A late decline stays recorded with its key: it moved no money, and a repeat
    gets it."""

    async def release(tx: Tx) -> None:
        await repository.forget_answer(tx, key, row["uuid"])
        with suppress(RuleViolation):  # not pending any more: reversed or captured meanwhile
            await reverse(tx, row["user_uuid"], ReversalMessage(row["uuid"], "iso8583"))

    try:
        with deadlines.outside():  # the deadline passed: this unit must run all the same
            await host.db.transact(release)
    except Exception as exc:
        log.error(
            "ISO 8583 key %s approved after its 91, not released (%s): held until it expires",
            key.masked(), type(exc).__name__,
        )  # fmt: skip


async def _authorize(host: Host, message: Message, *, stand_in: bool) -> Answer:
    """An authorization (or a stand-in advice) once per key."""
    require(message, 2, 3, 4, 49, *(() if stand_in else (14,)))
    if message.fields[3] != PURCHASE and not is_withdrawal(message.fields[3]):
        raise Malformed("processing code of an authorization is 000000 or 01xxxx")
    if 48 in message.fields and sub_elements(message.fields[48]) is None:
        raise Malformed("field 48")
    key = key_of(message)
    async with host.one_at_a_time(key):
        for _attempt_number in range(ATTEMPTS):
            answer = await _attempt(host, message, key, stand_in)
            if answer is not None:
                return answer
    raise RuntimeError(f"message key {key.masked()} kept changing")


async def authorization(host: Host, message: Message) -> Answer:
    """0100 / 0101 → 0110 (processing code 900000: a wallet's provisioning request)."""
    if message.fields.get(3) == PROVISIONING:
        return await provisioning_request(host, message)
    return await _authorize(host, message, stand_in=False)


async def stand_in_advice(host: Host, message: Message) -> Answer:
    """0120 / 0121 → 0130: always `00`."""
    answer = await _authorize(host, message, stand_in=True)
    return {**answer, "39": APPROVED}
