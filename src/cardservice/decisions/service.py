"""The user's decision endpoint asked about an authorization
(docs/controls.md#the-decision-endpoint): one step of `transactions.authorize.authorize_card`, which
holds no unit of work open while it runs.

The endpoint is asked with a signed POST (Standard Webhooks, event type
`authorization.request`, `webhook-id` = the transaction's uuid), no redirects, answered
within `timeout_ms` by `{"approved": true|false, "reason"?: "..."}`; a timeout gives
`decision` = `timeout`, anything else that is not such an answer (a refused connection, a
non-2xx status, a body that is not that object) `endpoint_error`: both take `on_timeout`.
Its health is then noted in a small unit of its own (endpoints.py: five failures in a row
put it in stand-in for 60 s, where every authorization takes `on_timeout` at once with
`decision` = `stand_in`). An endpoint whose secret the configured keys cannot read is not
asked (never sent unsigned): `endpoint_error`, counted on `/metrics` as
`cardservice_unreadable_secrets_total{kind="decision_endpoint"}`.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from dataclasses import dataclass
from typing import Any

import orjson

from cardservice.db import deadlines
from cardservice.db.database import Database
from cardservice.decisions.endpoints import Endpoint, note_failure, note_recovery
from cardservice.encoding import dumps
from cardservice.infra.outbound import CallFailed, Outbound, UrlNotAllowed, signed_headers
from cardservice.models.base import utcnow
from cardservice.observability.metrics import count_unreadable_secret

log = logging.getLogger("cardservice.decisions")
EVENT_TYPE = "authorization.request"
PROVISIONING_TYPE = "token_provisioning"
PROVISIONING_ANSWERS = ("approve", "decline", "step_up")
MAX_ANSWER_BYTES = 16_384  # an answer is a small object; a longer body is an error


@dataclass(frozen=True, slots=True)
class Verdict:
    """The decision endpoint's answer, applied when the rules approve: `decision` is
    `endpoint`, `timeout`, `endpoint_error` or `stand_in`."""

    approved: bool
    decision: str
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class ProvisioningVerdict:
    """The endpoint's answer to a provisioning request: `decision` (`approve`, `decline`,
    `step_up`) and its source (`endpoint`, `timeout`, `endpoint_error`, `stand_in`)."""

    decision: str
    source: str


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


async def _exchange(
    http: Outbound,
    endpoint: Endpoint,
    event: dict[str, Any],
    allow_private: bool,
    answer_within: float | None,
) -> tuple[int, bytes | None] | str:
    """POST the signed event; the reply's (status, body), or `timeout` / `endpoint_error`."""
    if endpoint.secret is None:
        log.warning("decision endpoint secret unreadable (cardservice keys check)")
        count_unreadable_secret("decision_endpoint")
        return "endpoint_error"
    body = dumps(event)
    headers = signed_headers([endpoint.secret], event["uuid"], body, utcnow())
    wait = endpoint.timeout_ms / 1000
    if answer_within is not None:  # the channel's own deadline is shorter (ISO 8583: 3 s)
        wait = min(wait, answer_within)
    deadlines.allow(wait)  # the channel's answer may wait as long for the endpoint's
    try:
        async with asyncio.timeout(wait):
            reply = await http.post(
                endpoint.url, body, headers, allow_private=allow_private, limit=MAX_ANSWER_BYTES
            )
    except TimeoutError:
        return "timeout"
    except (CallFailed, UrlNotAllowed):
        return "endpoint_error"
    return reply.status, reply.body


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
    fallback = endpoint.approve_on_timeout
    reply = await _exchange(http, endpoint, event, allow_private, answer_within)
    if isinstance(reply, str):
        return Verdict(fallback, reply)
    answer = _answer(*reply)
    if answer is None:
        return Verdict(fallback, "endpoint_error")
    return Verdict(answer[0], "endpoint", answer[1])


def _provisioning_answer(status: int, body: bytes | None) -> str | None:
    """`approve`, `decline` or `step_up` from a 2xx `{"decision": ...}`, else None."""
    if not 200 <= status < 300 or body is None:
        return None
    try:
        parsed = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    decision = parsed.get("decision") if isinstance(parsed, dict) else None
    return decision if decision in PROVISIONING_ANSWERS else None


async def ask_provisioning(
    http: Outbound,
    endpoint: Endpoint,
    event: dict[str, Any],
    allow_private: bool,
    answer_within: float | None = None,
) -> ProvisioningVerdict:
    """Ask the endpoint whether a card may go into a wallet (docs/network.md#wallet-tokens): the
    event's `type` is `token_provisioning`; the answer `{"decision": "approve" | "decline" |
    "step_up"}`. A timeout or an error takes `on_timeout` (`approve`: the rules' decision
    stands)."""
    fallback = "approve" if endpoint.approve_on_timeout else "decline"
    if endpoint.in_stand_in(utcnow()):
        return ProvisioningVerdict(fallback, "stand_in")
    reply = await _exchange(http, endpoint, event, allow_private, answer_within)
    if isinstance(reply, str):
        return ProvisioningVerdict(fallback, reply)
    decision = _provisioning_answer(*reply)
    if decision is None:
        return ProvisioningVerdict(fallback, "endpoint_error")
    return ProvisioningVerdict(decision, "endpoint")


async def note_health(
    db: Database, user_uuid: uuid.UUID, endpoint: Endpoint, verdict: Verdict
) -> None:
    """A unit of its own, and only when the count changes (a healthy endpoint costs none)."""
    if verdict.decision != "endpoint":
        now = utcnow()
        await db.transact(lambda tx: note_failure(tx, user_uuid, now))
    elif endpoint.consecutive_failures:
        await db.transact(lambda tx: note_recovery(tx, user_uuid))
