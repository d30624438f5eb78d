"""0100 authorizations and 0120 stand-in advices (API.md §14, §17): a merchant the card-testing
guard blocked answers `59` at once; otherwise the card is verified, then the sandbox's entry
(`transactions.authorize.authorize_card` → the engine) decides and records — the guard counts
a verification failure there, under the card's lock — and the answer is written with the
message's key in the unit that records it. An unknown number records nothing but counts
against its merchant.

Field 2 may be a wallet token's DPAN (API.md §19): the vault resolves it to its card before
the entry, so every rule, limit, control, fee, event and webhook of a card payment applies;
14 must be the token's expiry (a verification failure as a card's), a suspended token (or one
waiting for its activation) is declined `token_inactive` (`62`), a deleted one is an unknown
number (`14`) — but an 0120 advice on it is recorded on its card, as a clearing presentment
on it is booked there. An 0100 with processing code 900000 is a wallet's provisioning request
(provisioning.py)."""

from __future__ import annotations

import uuid
from typing import Any

from cardservice.db.sql import Tx
from cardservice.models.base import utcnow
from cardservice.network import repository
from cardservice.network.codec import Message, available_balance, merchant_place, sub_elements
from cardservice.network.fields import (
    CURRENCIES,
    NUMERIC_CURRENCIES,
    PROVISIONING,
    PURCHASE,
    THREE_DS_CODE,
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
from cardservice.network.repository import IssuedCard, Key, KeyTaken, Remembered
from cardservice.network.responses import (
    APPROVED,
    INSUFFICIENT_FUNDS,
    SUSPECTED_FRAUD,
    UNKNOWN_CARD,
    code_of,
)
from cardservice.network.verification import token_verification_failure, verification_failure
from cardservice.observability import metrics
from cardservice.transactions import card_testing, lifecycle
from cardservice.transactions.adjustments import shrink_hold
from cardservice.transactions.authorize import authorize_card
from cardservice.transactions.card_testing import Merchant
from cardservice.transactions.engine import Authorization


def network_data(message: Message, auth_code: str | None) -> dict[str, str | None]:
    """What the transaction shows of the network (API.md §14)."""

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


async def _request(
    host: Host, message: Message, card: IssuedCard, verification: str | None, stand_in: bool
) -> Authorization:
    """The entry's request: amount and currency of 4 and 49, merchant of 43 (its tag by
    name), MCC of 18, the 3DS code of 48.41, the verification's result; a stand-in keeps
    the network's code of 38."""
    amount = int(message.fields[4])
    if amount <= 0:
        raise Malformed("amount must be positive")
    transaction = uuid.uuid4()
    place = merchant_place(message.fields[43]) if 43 in message.fields else None
    name = (place.name if place else "") or message.fields.get(42, "").strip() or "Card acceptor"
    elements = sub_elements(message.fields.get(48, "")) or {}
    code = message.fields.get(38, "").strip() or None if stand_in else auth_code(transaction)
    return Authorization(
        card_uuid=card.card_uuid,
        amount=amount,
        currency=CURRENCIES.get(message.fields[49], message.fields[49]),
        merchant_name=name,
        merchant_id=message.fields.get(42, "").strip() or None,
        mcc=message.fields.get(18),
        merchant_country=place.country if place else None,
        merchant_city=place.city if place else None,
        tag=await host.tag_of(name),
        three_ds_code=None if stand_in else elements.get(THREE_DS_CODE),
        verification=verification,
        force_decline=_inactive_token(card, stand_in),
        acceptor=acceptor(message),
        uuid=transaction,
        channel="iso8583",
        network=network_data(message, code),
        stand_in=stand_in,
        token=card.paid_with,
    )


def _inactive_token(card: IssuedCard, stand_in: bool) -> str | None:
    """`token_inactive` for a wallet token suspended or waiting for its activation code."""
    if stand_in or card.token is None or card.token.status == "active":
        return None
    return "token_inactive"


def _waiting(found: Remembered | None) -> Remembered | None:
    """A reversal (not older than 24 h) waiting for this original."""
    if found is None or utcnow() - found.created_at > REVERSAL_MEMORY:
        return None
    return found


async def _answered(
    tx: Tx, key: Key, card: IssuedCard, row: dict[str, Any], waiting: Remembered | None
) -> Answer:
    """The answer of a recorded authorization, written with its key. An original a reversal
    was waiting for is answered as usual and released at once (shrunk, for a partial one),
    when the reversal was for this card."""
    paying = row["card_uuid"]  # a token's payment may be booked on its card's replacement
    closed = row.get("error_slug") == "card_closed"
    code = code_of(row, await repository.closed_reason(tx, paying) if closed else None)
    if (
        waiting is not None
        and code == APPROVED
        and waiting.answer.get("card") == str(card.card_uuid)
    ):
        stays = waiting.answer.get("stays")
        if isinstance(stays, int) and stays > 0:
            await shrink_hold(tx, row["user_uuid"], row["uuid"], stays, utcnow())
        else:
            await lifecycle.reverse(tx, row["user_uuid"], row["uuid"])
    own = {"39": code}
    network = row.get("network_data") or {}
    if code == APPROVED and network.get("auth_code"):
        own["38"] = network["auth_code"]
    if code in (APPROVED, INSUFFICIENT_FUNDS):
        # the card's balance after everything this unit did (its charge, an auto-replenish,
        # the release of a waiting reversal): the unit locked the card and moved it only by
        # `post_entry`, whose RETURNING it keeps (`tx.card_balances`)
        balance, currency = tx.card_balances[paying]
        own["54"] = available_balance(NUMERIC_CURRENCIES.get(currency, "000"), balance)
    await repository.remember(
        tx, key, row["uuid"], code, own, utcnow(), waiting=waiting is not None
    )
    return own


async def _blocked(host: Host, key: Key, waiting: bool) -> Answer | None:
    """A blocked merchant's 0100: `59`, remembered under its key, no card touched; None when
    another unit took the key meanwhile."""
    answer = {"39": SUSPECTED_FRAUD}
    try:
        await host.db.transact(
            lambda tx: repository.remember(
                tx, key, None, SUSPECTED_FRAUD, answer, utcnow(), waiting=waiting
            )
        )
    except KeyTaken:
        return None
    return answer


async def _attempt(host: Host, message: Message, key: Key, stand_in: bool) -> Answer | None:
    """One try at answering; None when another unit took the key meanwhile (look again)."""
    fingerprint = host.cipher.fingerprint(message.fields[2])
    merchant = acceptor(message)
    card, found, blocked_until = await repository.card_and_key(
        host.db.reader, fingerprint, key, merchant
    )
    if found is not None and found.response_code is not None:
        return found.answer  # a repeat: the first answer, nothing moves
    if not stand_in and card_testing.merchant_blocked(blocked_until, utcnow()):
        return await _blocked(host, key, waiting=found is not None)
    deleted_token = card is not None and card.token is not None and card.token.status == "deleted"
    # a deleted token's advice is recorded on its card, as its presentment is booked there
    # (docs/network.md): the network charged the card, whatever the issuer answers
    if card is None or (deleted_token and not stand_in):
        if not stand_in:  # nothing recorded; the merchant's count of failures grows
            await host.db.transact(
                lambda tx: card_testing.note_merchant_failure(tx, merchant, utcnow())
            )
            return {"39": UNKNOWN_CARD}
        log.warning("ISO 8583 0120 for a card not issued here: pan %s", masked_pan(message))
        return {"39": APPROVED}
    verification = None
    if card.token is not None and not stand_in:
        verification = token_verification_failure(message, card.token)
    elif not stand_in:
        verification = verification_failure(host.cipher, message, card)
    request = await _request(host, message, card, verification, stand_in)
    waiting = _waiting(found)
    answers: list[Answer] = []

    async def then(tx: Tx, row: dict[str, Any]) -> None:
        row["network_data"] = request.network
        answers.append(await _answered(tx, key, card, row, waiting))

    try:
        row = await authorize_card(
            host.db, host.http, host.cipher, card.user_uuid, request,
            allow_private=host.allow_private, answer_within=ANSWER_WITHIN, then=then,
        )  # fmt: skip
    except KeyTaken:
        return None
    metrics.count_authorization(row["status"], row["error_slug"])  # once committed
    return answers[-1]


async def _authorize(host: Host, message: Message, *, stand_in: bool) -> Answer:
    """An authorization (or a stand-in advice) once per key."""
    require(message, 2, 3, 4, 49, *(() if stand_in else (14,)))
    if message.fields[3] != PURCHASE:
        raise Malformed("processing code of an authorization is 000000")
    if 48 in message.fields and sub_elements(message.fields[48]) is None:
        raise Malformed("field 48")
    key = key_of(message)
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
