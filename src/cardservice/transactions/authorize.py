"""The one entry of an authorization, whatever the channel (docs/transactions.md#sandbox-and-cli,
docs/controls.md#card-lifecycle-spending-controls-and-the-decision-endpoint,
docs/transactions.md#holds-captures-increments-expiry).

Every channel — the sandbox route, `cardservice simulate authorize`, an increment, the
ISO 8583 host — builds one `Authorization` (its `channel` says who sent it; the rules do
not look) and calls `authorize_card`. No database transaction or row lock is held while the
user's decision endpoint thinks:

1. unit 1 takes the locks and applies the rules (`engine.decide`; the endpoint's row is
   read with the locked card, so a user without one pays no extra round trip); a decline by
   the rules is recorded there and then (`decision` = `rules`), and so is every answer of a
   user without an endpoint, or with one in stand-in; an approval to ask about commits
   nothing;
2. the endpoint is asked, with no unit open (`decisions.service.ask`);
3. its health is noted in a small unit of its own (`decisions.service.note_health`);
4. unit 2 locks again, decides again (funds, limits and the card's status may have moved
   meanwhile: a decline then is the rules', whatever the endpoint said), applies the answer
   and records.

A payment with a wallet token (`request.token`, docs/network.md#wallet-tokens) names the card its
channel read for the token; a replacement may have moved the token since. Each unit takes the
account's lock through that card first (the replacement takes it too), then pays with the card that
replaced it, if any (`payee`): the payment is booked on exactly one of the two cards.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from cardservice.db.database import Database
from cardservice.db.sql import Row, Tx, text_uuid
from cardservice.decisions.endpoints import Endpoint, endpoint_in
from cardservice.decisions.service import EVENT_TYPE, Verdict, ask, note_health
from cardservice.infra.outbound import Outbound
from cardservice.ledger.minor_units import from_minor
from cardservice.models.base import utcnow
from cardservice.security import CardCipher
from cardservice.transactions.engine import Authorization, Decided, authorize, decide, record
from cardservice.transactions.locks import lock_card_account
from cardservice.transactions.repository import payee

__all__ = [
    "Authorization",
    "Question",
    "Then",
    "authorization_of",
    "authorize_card",
    "endpoint_then",
    "request_event",
    "rules_first",
]


def authorization_of(
    card_uuid: uuid.UUID,
    amount: int,
    currency: str,
    merchant_name: str,
    details: Mapping[str, Any],
    channel: str,
) -> Authorization:
    """The one construction of an authorization request, whatever the channel: the amount in
    minor units, `details` the optional fields by their API names (absent: None)."""
    return Authorization(
        card_uuid,
        amount,
        currency,
        merchant_name,
        mcc=details.get("mcc"),
        merchant_country=details.get("merchant_country"),
        merchant_city=details.get("merchant_city"),
        tag=details.get("tag"),
        three_ds_code=details.get("three_ds_code"),
        force_decline=details.get("force_decline"),
        parent_uuid=details.get("parent_uuid"),
        channel=channel,
    )


@dataclass(frozen=True, slots=True)
class Question:
    """What unit 1 leaves to ask: the endpoint and the event it is sent."""

    endpoint: Endpoint
    event: dict[str, Any]


def request_event(request: Authorization, decided: Decided) -> dict[str, Any]:
    """What the endpoint is sent: an event `{uuid, type, created_at, data}` whose data is the
    authorization as it would be recorded if approved."""
    card = decided.card
    return {
        "uuid": str(request.uuid),
        "type": EVENT_TYPE,
        "created_at": utcnow(),
        "data": {
            "transaction_uuid": str(request.uuid),
            "card_uuid": str(request.card_uuid),
            "account_uuid": text_uuid(card["account_uuid"]),
            "amount": from_minor(decided.amount),
            "currency": card["currency"] if decided.rate is not None else request.currency,
            "merchant_amount": from_minor(request.amount),
            "merchant_currency": request.currency,
            "fee": from_minor(decided.fee),
            "parent_uuid": text_uuid(request.parent_uuid),  # an increment of this purchase
            "merchant": {
                "name": request.merchant_name,
                "mcc": request.mcc,
                "country": request.merchant_country,
                "city": request.merchant_city,
            },
            "tag": request.tag,
            "card_balance": from_minor(card["balance"]),
        },
    }


async def _paying_card(
    tx: Tx, user_uuid: uuid.UUID, request: Authorization, locked: bool
) -> Authorization:
    """A token payment's request with the card that pays now: the named card, or the card
    that replaced it (read under the account's lock, which a replacement holds too;
    `locked`: the caller took it already)."""
    if request.token is None:
        return request
    if not locked and await lock_card_account(tx, user_uuid, request.card_uuid) is None:
        return request
    current, _status = await payee(tx, request.card_uuid)
    return request if current == request.card_uuid else replace(request, card_uuid=current)


Then = Callable[[Tx, dict[str, Any]], Awaitable[None]]


async def rules_first(
    tx: Tx,
    cipher: CardCipher,
    user_uuid: uuid.UUID,
    request: Authorization,
    then: Then | None = None,
    account: Row | None = None,
) -> tuple[dict[str, Any] | None, Question | None]:
    """Unit 1 (`authorize_card`): decide under the locks; the recorded row, or (None) the
    question to ask the decision endpoint. `account`: the card's account's row, when the
    caller locked it in this unit already, as `locks.lock_authorization_account` reads it
    (the ISO 8583 host reads it with the card of the number: no round trip of its own)."""
    now = utcnow()
    paying = await _paying_card(tx, user_uuid, request, account is not None)
    if paying.card_uuid != request.card_uuid:  # a replacement's: its account's lock is taken
        account = None
    decided = await decide(tx, cipher, user_uuid, paying, now, account)
    endpoint = endpoint_in(decided.card, cipher)
    if not decided.approved or endpoint is None or request.stand_in:
        row = await record(tx, user_uuid, paying, decided, None, now)
    elif endpoint.in_stand_in(now):
        stand_in = Verdict(endpoint.approve_on_timeout, "stand_in")
        row = await record(tx, user_uuid, paying, decided, stand_in, now)
    else:
        return None, Question(endpoint, request_event(paying, decided))
    if then is not None:
        await then(tx, row)
    return row, None


async def endpoint_then(
    db: Database,
    http: Outbound,
    cipher: CardCipher,
    user_uuid: uuid.UUID,
    request: Authorization,
    question: Question,
    *,
    allow_private: bool,
    answer_within: float | None = None,
    then: Then | None = None,
) -> dict[str, Any]:
    """Steps 2-4 (`authorize_card`) after a unit 1 that left `question`: ask, note the
    endpoint's health, decide again under the locks and record. Returns the row."""
    verdict = await ask(http, question.endpoint, question.event, allow_private, answer_within)
    await note_health(db, user_uuid, question.endpoint, verdict)

    async def with_verdict(tx: Tx) -> dict[str, Any]:
        paying = await _paying_card(tx, user_uuid, request, locked=False)
        row = await authorize(tx, cipher, user_uuid, paying, verdict)
        if then is not None:
            await then(tx, row)
        return row

    return await db.transact(with_verdict)


async def authorize_card(
    db: Database,
    http: Outbound,
    cipher: CardCipher,
    user_uuid: uuid.UUID,
    request: Authorization,
    *,
    allow_private: bool,
    answer_within: float | None = None,
    then: Then | None = None,
) -> dict[str, Any]:
    """Answer one authorization, asking the user's decision endpoint when one is set and the
    rules approve. Returns the transaction's row.

    A channel may bound the endpoint's wait (`answer_within` seconds, below its own
    `timeout_ms`; past it `on_timeout` applies), and hand in `then`: work done in the unit
    that records the answer, with its row (the network's message key, written with it or
    not at all). A stand-in authorization (`request.stand_in`) is never sent to the endpoint:
    the network approved it already.

    Unit 1 decides under the locks; the endpoint's row comes with the locked card. Without an
    endpoint (or in its stand-in), or when the rules decline, unit 1 records the answer and
    that is all; otherwise it writes nothing and the endpoint is asked (`allow_private`:
    whether its host may resolve to a private address, `Settings.private_urls_allowed`)."""

    first, question = await db.transact(
        lambda tx: rules_first(tx, cipher, user_uuid, request, then)
    )
    if first is not None:
        return first
    assert question is not None
    return await endpoint_then(
        db, http, cipher, user_uuid, request, question,
        allow_private=allow_private, answer_within=answer_within, then=then,
    )  # fmt: skip
