"""An authorization with the user's decision endpoint in the loop (API.md §10).

No database transaction or row lock is held while the endpoint thinks:

1. unit 1 takes the locks and applies the rules (`engine.decide`; the endpoint's row is
   read with the locked card, so a user without one pays no extra round trip); a decline by
   the rules is recorded there and then (`decision` = `rules`), and so is every answer of a
   user without an endpoint, or with one in stand-in; an approval to ask about commits
   nothing;
2. the endpoint is asked, with no unit open: a signed POST (Standard Webhooks, event type
   `authorization.request`, `webhook-id` = the transaction's uuid), no redirects, answered
   within `timeout_ms` by `{"approved": true|false, "reason"?: "..."}`; a timeout gives
   `decision` = `timeout`, anything else that is not such an answer (a refused connection,
   a non-2xx status, a body that is not that object) `endpoint_error`: both take
   `on_timeout`;
3. the endpoint's health is noted in a small unit of its own (endpoints.py: five failures in
   a row put it in stand-in for 60 s, where every authorization takes `on_timeout` at once
   with `decision` = `stand_in`);
4. unit 2 locks again, decides again (funds, limits and the card's status may have moved
   meanwhile: a decline then is the rules', whatever the endpoint said), applies the answer
   and records.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import orjson

from cardservice.db import Database
from cardservice.decisions.endpoints import Endpoint, endpoint_in, note_failure, note_recovery
from cardservice.ledger.money import from_minor
from cardservice.models.base import utcnow
from cardservice.outbound import CallFailed, Outbound, UrlNotAllowed, signed_headers
from cardservice.security import CardCipher
from cardservice.sql import Tx, text_uuid
from cardservice.transactions.engine import Authorization, Decided, Verdict, authorize, decide
from cardservice.transactions.engine import record as record_answer
from cardservice.web import dumps

EVENT_TYPE = "authorization.request"
MAX_ANSWER_BYTES = 16_384  # an answer is a small object; a longer body is an error


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


def _answer(status: int, body: bytes | None) -> tuple[bool, str | None] | None:
    """(approved, reason) from a 2xx `{"approved": bool, "reason"?: str}`, else None."""
    if not 200 <= status < 300 or body is None:
        return None
    try:
        parsed = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(parsed, dict) or not isinstance(parsed.get("approved"), bool):
        return None
    reason = parsed.get("reason")
    return parsed["approved"], reason[:255] if isinstance(reason, str) else None


async def ask(
    http: Outbound,
    endpoint: Endpoint,
    event: dict[str, Any],
    allow_private: bool,
    answer_within: float | None = None,
) -> Verdict:
    """POST the signed event and read the answer within the endpoint's timeout (the whole
    exchange, not each phase of it), to the address its host resolves to now, checked as
    webhooks' are (a name that turned private is an `endpoint_error`). Never raises for
    anything the endpoint does."""
    body = dumps(event)
    headers = signed_headers([endpoint.secret], event["uuid"], body, utcnow())
    fallback = endpoint.approve_on_timeout
    wait = endpoint.timeout_ms / 1000
    if answer_within is not None:  # the channel's own deadline is shorter (ISO 8583: 3 s)
        wait = min(wait, answer_within)
    try:
        async with asyncio.timeout(wait):
            reply = await http.post(
                endpoint.url, body, headers, allow_private=allow_private, limit=MAX_ANSWER_BYTES
            )
    except TimeoutError:
        return Verdict(fallback, "timeout")
    except (CallFailed, UrlNotAllowed):
        return Verdict(fallback, "endpoint_error")
    answer = _answer(reply.status, reply.body)
    if answer is None:
        return Verdict(fallback, "endpoint_error")
    return Verdict(answer[0], "endpoint", answer[1])


async def _note_health(
    db: Database, user_uuid: uuid.UUID, endpoint: Endpoint, verdict: Verdict
) -> None:
    """A unit of its own, and only when the count changes (a healthy endpoint costs none)."""
    if verdict.decision != "endpoint":
        now = utcnow()
        await db.transact(lambda tx: note_failure(tx, user_uuid, now))
    elif endpoint.consecutive_failures:
        await db.transact(lambda tx: note_recovery(tx, user_uuid))


async def authorize_card(
    db: Database,
    http: Outbound,
    cipher: CardCipher,
    user_uuid: uuid.UUID,
    request: Authorization,
    *,
    allow_private: bool,
    answer_within: float | None = None,
    then: Callable[[Tx, dict[str, Any]], Awaitable[None]] | None = None,
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

    async def recorded(tx: Tx, row: dict[str, Any]) -> dict[str, Any]:
        if then is not None:
            await then(tx, row)
        return row

    async def rules_first(tx: Tx) -> tuple[dict[str, Any] | None, Question | None]:
        now = utcnow()
        decided = await decide(tx, cipher, user_uuid, request, now)
        endpoint = endpoint_in(decided.card, cipher)
        if not decided.approved or endpoint is None or request.stand_in:
            row = await record_answer(tx, user_uuid, request, decided, None, now)
            return await recorded(tx, row), None
        if endpoint.in_stand_in(now):
            stand_in = Verdict(endpoint.approve_on_timeout, "stand_in")
            row = await record_answer(tx, user_uuid, request, decided, stand_in, now)
            return await recorded(tx, row), None
        return None, Question(endpoint, request_event(request, decided))

    async def with_verdict(tx: Tx) -> dict[str, Any]:
        return await recorded(tx, await authorize(tx, cipher, user_uuid, request, verdict))

    first, question = await db.transact(rules_first)
    if first is not None:
        return first
    assert question is not None
    verdict = await ask(http, question.endpoint, question.event, allow_private, answer_within)
    await _note_health(db, user_uuid, question.endpoint, verdict)
    return await db.transact(with_verdict)
