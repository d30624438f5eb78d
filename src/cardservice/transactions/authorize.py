"""The one entry of an authorization, whatever the channel (docs/transactions.md#sandbox-and-cli,
docs/controls.md#card-lifecycle-spending-controls-and-the-decision-endpoint,
docs/transactions.md#holds-captures-increments-expiry).

Every channel builds one `Authorization` (its `presentation`: what the channel knows, as data;
the rules never ask which channel it was) and calls `authorize_opened`: the ISO 8583 host with
its own first step in unit 1 (the card of the number, its account locked, the message's key),
the sandbox route, `cardservice simulate authorize` and an increment through `authorize_card`,
which opens with the card it names. The clearing file's force post is a stand-in recorded in
its file's unit (`force_posts.force_post`); the demo's history, whose users have no endpoint, runs
unit 1 alone in its one unit (`rules_first`). No database transaction or row lock is held while
the user's decision endpoint thinks:

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

A payment with a wallet token (`presentation.token`, docs/network.md#wallet-tokens) names the card
its channel read for the token; a replacement may have moved the token since. Each unit takes the
account's lock through that card first (the replacement takes it too), then pays with the card that
replaced it, if any (`payee`): the payment is booked on exactly one of the two cards.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Generic, TypeVar

from cardservice.db.database import Database
from cardservice.db.sql import Tx, text_uuid
from cardservice.decisions.endpoints import Endpoint, endpoint_in
from cardservice.decisions.service import EVENT_TYPE, Verdict, ask, note_health
from cardservice.infra.outbound import Outbound
from cardservice.ledger.minor_units import from_minor
from cardservice.models.base import utcnow
from cardservice.security import CardCipher
from cardservice.transactions.engine import (
    Authorization,
    Decided,
    Locked,
    Presentation,
    Recorded,
    decide,
    record,
)
from cardservice.transactions.locks import lock_card_account
from cardservice.transactions.repository import payee

T = TypeVar("T")

__all__ = [
    "Answered",
    "Authorization",
    "Locked",
    "Opened",
    "Presentation",
    "Question",
    "Recorded",
    "Then",
    "authorization_of",
    "authorize_card",
    "authorize_opened",
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
        parent_uuid=details.get("parent_uuid"),
        presentation=Presentation(channel, forced=details.get("force_decline")),
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
    if request.presentation.token is None:
        return request
    if not locked and await lock_card_account(tx, user_uuid, request.card_uuid) is None:
        return request
    current, _status = await payee(tx, request.card_uuid)
    return request if current == request.card_uuid else replace(request, card_uuid=current)


# work a channel does in the unit that records the answer, with what it recorded
Then = Callable[[Tx, Recorded], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Opened:
    """What a channel's own first step found in unit 1 (`authorize_opened`): the request to
    answer and whose it is; `locked`: the card's account's row and the card's when the step
    locked them already, as `engine.decide` reads them (no round trip of their own); `then`:
    the channel's work in the unit that records the answer."""

    user_uuid: uuid.UUID
    request: Authorization
    locked: Locked | None = None
    then: Then | None = None


@dataclass(frozen=True, slots=True)
class Answered(Generic[T]):
    """A channel's own answer from its first step: there is nothing to authorize."""

    answer: T


@dataclass(frozen=True, slots=True)
class _Asking:
    opened: Opened
    question: Question


async def rules_first(
    tx: Tx,
    cipher: CardCipher,
    user_uuid: uuid.UUID,
    request: Authorization,
    then: Then | None = None,
    locked: Locked | None = None,
    now: datetime | None = None,
) -> tuple[Recorded | None, Question | None]:
    """Unit 1 of the entry, in the caller's unit: decide under the locks; what was recorded,
    or (None) the question to ask the decision endpoint. Alone it serves a caller whose one
    unit holds everything and whose users have no endpoint (the demo's history, `now` its
    time). `locked`: the card's account's row and the card's, when the caller locked them in
    this unit already."""
    now = now or utcnow()
    paying = await _paying_card(tx, user_uuid, request, locked is not None)
    if paying.card_uuid != request.card_uuid:  # a replacement's: its own locks are taken
        locked = None
    decided = await decide(tx, cipher, user_uuid, paying, now, locked)
    endpoint = endpoint_in(decided.card, cipher)
    if not decided.approved or endpoint is None or request.presentation.stand_in:
        recorded = await record(tx, user_uuid, paying, decided, None, now)
    elif endpoint.in_stand_in(now):
        stand_in = Verdict(endpoint.approve_on_timeout, "stand_in")
        recorded = await record(tx, user_uuid, paying, decided, stand_in, now)
    else:
        return None, Question(endpoint, request_event(paying, decided))
    if then is not None:
        await then(tx, recorded)
    return recorded, None


async def _endpoint_then(
    db: Database,
    http: Outbound,
    cipher: CardCipher,
    asking: _Asking,
    *,
    allow_private: bool,
    answer_within: float | None,
) -> Recorded:
    """Steps 2-4 after a unit 1 that left a question: ask, note the endpoint's health,
    decide again under the locks and record."""
    user_uuid, request, then = asking.opened.user_uuid, asking.opened.request, asking.opened.then
    question = asking.question
    verdict = await ask(http, question.endpoint, question.event, allow_private, answer_within)
    await note_health(db, user_uuid, question.endpoint, verdict)

    async def with_verdict(tx: Tx) -> Recorded:
        now = utcnow()
        paying = await _paying_card(tx, user_uuid, request, locked=False)
        decided = await decide(tx, cipher, user_uuid, paying, now)
        recorded = await record(tx, user_uuid, paying, decided, verdict, now)
        if then is not None:
            await then(tx, recorded)
        return recorded

    return await db.transact(with_verdict)


async def authorize_opened(
    db: Database,
    http: Outbound,
    cipher: CardCipher,
    opening: Callable[[Tx], Awaitable[Opened | Answered[T]]],
    *,
    allow_private: bool,
    answer_within: float | None = None,
    unit: Callable[[Callable[[Tx], Awaitable[Any]]], Awaitable[Any]] | None = None,
) -> Recorded | T:
    """The entry of an authorization, whatever the channel: `opening` is the channel's own
    first step in unit 1 (the ISO 8583 host reads the card of the number with its account
    locked and the message's key); it returns what to authorize (`Opened`), or its own
    answer when there is nothing to authorize (`Answered`: a repeat, a blocked merchant, an
    unknown number; its answer is returned, nothing authorized). Returns what was recorded.

    A channel may bound the endpoint's wait (`answer_within` seconds, below its own
    `timeout_ms`; past it `on_timeout` applies), and hand in `Opened.then`: work done in the
    unit that records the answer, with what it recorded (the row and the card's balance
    after: the network's message key, written with it or not at all). A stand-in
    authorization (`presentation.stand_in`) is never sent to the endpoint: the network
    approved it already.

    Unit 1 decides under the locks; the endpoint's row comes with the locked card. Without an
    endpoint (or in its stand-in), or when the rules decline, unit 1 records the answer and
    that is all; otherwise it writes nothing and the endpoint is asked (`allow_private`:
    whether its host may resolve to a private address, `Settings.private_urls_allowed`).
    A channel may run unit 1 its own way (`unit`, `db.transact` by default): the ISO 8583
    host books the requests queued in one lane together (`network.batches`)."""

    async def first(tx: Tx) -> Recorded | _Asking | Answered[T]:
        # its events are its transactions' (written with their data): no outbox read at
        # COMMIT. An increment says otherwise (`engine._raise_hold`); another branch that
        # leaves a trigger's event (a card the guard froze) fails the check and runs again
        tx.events_written = True
        opened = await opening(tx)
        if isinstance(opened, Answered):
            return opened
        recorded, question = await rules_first(
            tx, cipher, opened.user_uuid, opened.request, opened.then, opened.locked
        )
        if recorded is not None:
            return recorded
        assert question is not None
        return _Asking(opened, question)

    done: Recorded | _Asking | Answered[T] = await (unit or db.transact)(first)
    if isinstance(done, Answered):
        return done.answer
    if isinstance(done, Recorded):
        return done
    return await _endpoint_then(
        db, http, cipher, done, allow_private=allow_private, answer_within=answer_within
    )


async def authorize_card(
    db: Database,
    http: Outbound,
    cipher: CardCipher,
    user_uuid: uuid.UUID,
    request: Authorization,
    *,
    allow_private: bool,
    answer_within: float | None = None,
) -> dict[str, Any]:
    """`authorize_opened` for a channel that knows the card and its user already (the
    sandbox, `cardservice simulate authorize`, an increment): the transaction's row."""

    async def opening(_tx: Tx) -> Opened | Answered[Recorded]:
        return Opened(user_uuid, request)

    recorded = await authorize_opened(
        db, http, cipher, opening, allow_private=allow_private, answer_within=answer_within
    )
    return recorded.row
