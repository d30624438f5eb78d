"""The delivery worker: claims due attempts, POSTs them outside any transaction, records
the outcome. At least once, never the same attempt twice:

* a claim is one unit that bumps `attempts` and sets a lease (PostgreSQL: `FOR UPDATE SKIP
  LOCKED`, so several workers share the queue; SQLite: claims run in the writer's turn,
  one at a time). A worker that dies mid-attempt leaves its lease to expire; the next claim
  takes the delivery again as a new attempt. The outcome is written only by the attempt
  that still holds the delivery (`attempts` unchanged).
* attempts are recorded in batches (`record`: one unit for the attempts that ended since the
  loop's last step); an attempt not yet recorded when its worker dies is made again once its
  lease expires, as one cut short.
* a 2xx within the timeout is delivered; anything else is retried after 5 s, 5 min,
  30 min, 2 h, 5 h, 10 h, 10 h (± 10 %), then the delivery is failed. `webhook-id` is the
  event's uuid on every attempt. Redirects are not followed; the host is resolved and
  checked before every attempt, and the attempt connects to the address checked.
* an endpoint whose secret does not read under the configured keys is not called: its
  attempts fail `secret_unreadable` (retried like any failure: putting the key back, or
  rotating the endpoint's secret, recovers it) and the other endpoints' go on.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from cardservice.config import Settings
from cardservice.db.database import Database
from cardservice.db.sql import Row, Tx, as_datetime, text_uuid
from cardservice.encoding import dumps
from cardservice.events import event_record
from cardservice.infra.outbound import CallFailed, Outbound, UrlNotAllowed, signed_headers
from cardservice.models.base import utcnow
from cardservice.observability.metrics import count_unreadable_secret
from cardservice.security import CardCipher
from cardservice.webhooks import repository
from cardservice.webhooks.metrics import outcome_of, record_attempt
from cardservice.webhooks.service import live_secrets

ANSWER_LIMIT = 65536  # bytes of a receiver's answer read; its status is what counts
RETRY_SCHEDULE = (5, 300, 1800, 7200, 18000, 36000, 36000)  # seconds after attempt 1, 2, …
JITTER = 0.10
UNREADABLE_ERROR = "secret_unreadable: the endpoint's secret does not read under the keys"
log = logging.getLogger("cardservice.webhooks")
_RECORD_BATCH = 100  # attempts per INSERT (9 parameters each)


@dataclass(frozen=True, slots=True)
class Claimed:
    """One attempt this worker holds: where to, signed with what, and the body."""

    delivery_id: int
    attempt: int
    endpoint_uuid: UUID
    url: str
    secrets: list[str] | None  # None: the current secret does not read (secret_unreadable)
    event_uuid: UUID
    event_created_at: datetime
    body: bytes


@dataclass(frozen=True, slots=True)
class Outcome:
    started_at: datetime
    status_code: int | None
    error: str | None
    duration_ms: int

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


def retry_delay(attempt: int, rng: random.Random) -> timedelta | None:
    """How long after failed attempt `attempt` (from 1) the next one is due; None: give up."""
    if attempt > len(RETRY_SCHEDULE):
        return None
    return timedelta(seconds=RETRY_SCHEDULE[attempt - 1] * rng.uniform(1 - JITTER, 1 + JITTER))


def _claimed(row: Row, cipher: CardCipher, now: datetime) -> Claimed:
    event = event_record(row)
    created = as_datetime(row["created_at"])
    assert created is not None
    return Claimed(
        delivery_id=int(row["delivery_id"]),
        attempt=int(row["attempts"]),
        endpoint_uuid=UUID(str(text_uuid(row["endpoint_uuid"]))),
        url=row["url"],
        secrets=live_secrets(row, cipher, now),
        event_uuid=UUID(str(event["uuid"])),
        event_created_at=created,
        body=dumps(event),
    )


async def claim(db: Database, cipher: CardCipher, lease: timedelta, limit: int) -> list[Claimed]:
    """Take up to `limit` due attempts for `lease`; one unit, committed before any POST.
    A read looks first, so an idle loop does not take SQLite's writer turn ten times a
    second."""
    if not await repository.any_due(db.reader, utcnow()):
        return []

    async def work(tx: Tx) -> list[Claimed]:
        now = utcnow()
        rows = await repository.claim_due(tx, now, now + lease, limit)
        return [_claimed(row, cipher, now) for row in rows]

    return await db.transact(work)


async def post(client: Outbound, claimed: Claimed, settings: Settings) -> Outcome:
    """One POST of the event, signed, cut at the timeout; never raises."""
    started, started_at = time.monotonic(), utcnow()
    if claimed.secrets is None:  # never sent unsigned, nor signed with a guess
        log.warning(
            "webhook secret unreadable", extra={"endpoint_uuid": str(claimed.endpoint_uuid)}
        )
        count_unreadable_secret("webhook_endpoint")
        return Outcome(started_at, None, UNREADABLE_ERROR, 0)
    status: int | None = None
    error: str | None = None
    try:
        async with asyncio.timeout(settings.webhook_timeout_seconds):
            headers = signed_headers(
                claimed.secrets, str(claimed.event_uuid), claimed.body, utcnow()
            )
            headers["user-agent"] = "cardservice-webhooks"
            answer = await client.post(
                claimed.url,
                claimed.body,
                headers,
                allow_private=settings.private_urls_allowed,
                limit=ANSWER_LIMIT,
            )
            status = answer.status
    except UrlNotAllowed as exc:
        error = f"url_not_allowed: {exc.message}"
    except TimeoutError:
        error = f"timeout after {settings.webhook_timeout_seconds:g} s"
    except CallFailed as exc:  # whatever the peer did
        error = str(exc)[:500]
    return Outcome(started_at, status, error, int((time.monotonic() - started) * 1000))


@dataclass(frozen=True, slots=True)
class Finished:
    """An attempt made, waiting to be recorded: what happened, and what follows from it."""

    claimed: Claimed
    outcome: Outcome
    status: str  # delivered | pending (due again at `next_at`) | failed
    next_at: datetime | None

    @classmethod
    def of(cls, claimed: Claimed, outcome: Outcome, rng: random.Random) -> Finished:
        """The attempt's verdict, its retry due from when the attempt ended."""
        delay = None if outcome.ok else retry_delay(claimed.attempt, rng)
        status = "delivered" if outcome.ok else ("pending" if delay else "failed")
        ended = outcome.started_at + timedelta(milliseconds=outcome.duration_ms)
        return cls(claimed, outcome, status, ended + delay if delay else None)


async def _still_there(tx: Tx, finished: Sequence[Finished]) -> list[Finished]:
    """The attempts whose endpoint was not deleted meanwhile (its deliveries and attempt log
    went with it), those endpoints locked until the unit ends, so none goes before the
    attempts are written. Endpoints before deliveries, as a deletion takes them."""
    there = await repository.lock_endpoints(tx, list({f.claimed.endpoint_uuid for f in finished}))
    return [f for f in finished if str(f.claimed.endpoint_uuid) in there]


async def record(db: Database, finished: Sequence[Finished]) -> None:
    """Log a batch of attempts in one unit: each delivery is delivered, due again later,
    or failed — only where the attempt still holds it (`attempts` unchanged). The attempts
    of an endpoint deleted meanwhile are dropped with it; they never undo the others'."""
    if not finished:
        return
    now = utcnow()

    async def work(tx: Tx) -> None:
        kept = await _still_there(tx, finished)
        for start in range(0, len(kept), _RECORD_BATCH):
            chunk = kept[start : start + _RECORD_BATCH]
            await repository.insert_attempts(tx, [_attempt(f, now) for f in chunk])
            await repository.finish_deliveries(tx, [_verdict(f, now) for f in chunk])

    await db.transact(work)
    for f in finished:
        _observe(f)


def _verdict(finished: Finished, now: datetime) -> tuple[int, int, str, datetime]:
    """(delivery, attempt, status, next attempt at) of an attempt made."""
    claimed = finished.claimed
    return claimed.delivery_id, claimed.attempt, finished.status, finished.next_at or now


def _attempt(finished: Finished, now: datetime) -> tuple[Any, ...]:
    """The attempt log's row of an attempt made."""
    c, o = finished.claimed, finished.outcome
    return (c.delivery_id, c.endpoint_uuid, c.event_uuid, c.attempt, o.status_code, o.error,
            o.duration_ms, finished.next_at, now)  # fmt: skip


def _observe(finished: Finished) -> None:
    claimed, outcome = finished.claimed, finished.outcome
    lag = (outcome.started_at - claimed.event_created_at).total_seconds()
    record_attempt(
        endpoint=claimed.endpoint_uuid,
        outcome=outcome_of(outcome.status_code, outcome.error),
        seconds=outcome.duration_ms / 1000,
        gave_up=finished.status == "failed",
        first_lag=lag if claimed.attempt == 1 else None,
    )
