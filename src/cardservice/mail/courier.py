"""Sending the queued mails: a step of the service's background loop (webhooks/worker.py),
in every process that mails (`CARDSERVICE_SMTP_URL` set). docs/mail.md#delivery.

* A claim is one unit that bumps a mail's `attempts` and leases it for the loop's lease
  (`CARDSERVICE_WEBHOOK_LEASE_SECONDS`; PostgreSQL: `FOR UPDATE SKIP LOCKED`, so loops share
  the queue). A sign-in mail gets its one-time link in that unit: the secret lives only in
  the message, never in the queue.
* Sent once: the attempt marks the mail `in_doubt` in a unit of its own (only if it still
  holds it) before the SMTP `DATA` command goes out. A mail still `pending` when its lease
  ends was never past `DATA` (the server discarded the unfinished transaction): it is taken
  again. A mail `in_doubt` is never sent again by the loop: its attempt writes the answer
  (250: `sent`; a 4xx or 5xx: as below), and one that got no answer — or died — leaves it to
  the operator (`settle`, `cardservice mail settle`), logged and counted.
* The outcome is written in a unit of its own, only by the attempt that still holds the mail
  (`attempts` unchanged).
* A 5xx answer gives up at once; anything else (a refused login too) is tried again after
  5 s, 1 min, 5 min, 30 min, 2 h, 5 h; a sign-in mail not sent before its link would expire
  gives up.
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import formatdate
from typing import Any

from cardservice.config import Settings
from cardservice.db.database import Database
from cardservice.db.sql import Row, Tx, as_datetime, as_uuid
from cardservice.mail import compose, repository
from cardservice.mail.metrics import count_mail
from cardservice.mail.transport import (
    MailAbandoned,
    MailFailed,
    MailInDoubt,
    MailRefused,
    SmtpServer,
    deliver,
)
from cardservice.models.base import utcnow
from cardservice.users import sign_in_link_for

RETRY_SCHEDULE = (5, 60, 300, 1800, 7200, 18000)  # seconds after attempt 1, 2, …
JITTER = 0.10
CONCURRENCY = 4  # messages handed to the server at once
log = logging.getLogger("cardservice.mail")


@dataclass(frozen=True, slots=True)
class Claimed:
    """One mail this loop holds for one attempt."""

    mail_id: int
    uuid: str
    kind: str
    to: str
    subject: str
    body: str
    attempt: int
    expires_at: datetime | None


def _claimed(row: Row) -> Claimed:
    return Claimed(int(row["id"]), str(as_uuid(row["uuid"])), row["kind"], row["email"],
                   row["subject"], row["body"], int(row["attempts"]),
                   as_datetime(row["expires_at"]))  # fmt: skip


async def _with_link(tx: Tx, row: Row, mail: Claimed, base_url: str, now: datetime) -> Claimed:
    """A sign-in mail with a fresh one-time link (made in the claim's unit)."""
    if mail.expires_at is not None and mail.expires_at <= now:
        return mail  # given up when recorded
    user = as_uuid(row["user_uuid"])
    assert user is not None
    secret, expires_at = await sign_in_link_for(tx, user)
    url = f"{base_url.rstrip('/')}/app/login?link={secret}"
    return replace(mail, body=compose.sign_in(url, expires_at))


ORPHANED = "the attempt ended (its loop stopped or died) after DATA, before the answer"


def _orphaned(rows: list[Row]) -> None:
    for row in rows:
        count_mail(row["kind"], "in_doubt")
        extra = {"mail_uuid": str(as_uuid(row["uuid"])), "kind": row["kind"],
                 "attempt": int(row["attempts"]), "outcome": "in_doubt",
                 "error": ORPHANED}  # fmt: skip
        log.warning("mail in doubt", extra=extra)


async def claim(db: Database, settings: Settings, limit: int) -> list[Claimed]:
    """Take up to `limit` due mails for the loop's lease; one unit, committed before any is
    sent. In the same unit the mails left in doubt by an attempt that ended without a word
    go to the operator. A read looks first, so an idle loop takes no writer's turn."""
    if not await repository.any_due(db.reader, utcnow()):
        return []
    lease = timedelta(seconds=settings.webhook_lease_seconds)
    orphans: list[Row] = []

    async def work(tx: Tx) -> list[Claimed]:
        now = utcnow()
        orphans[:] = await repository.orphans_in_doubt(tx, now, ORPHANED)
        claimed = []
        for row in await repository.claim_due(tx, now, now + lease, limit):
            mail = _claimed(row)
            if mail.kind == "sign_in":
                mail = await _with_link(tx, row, mail, settings.public_url, now)
            claimed.append(mail)
        return claimed

    claimed = await db.transact(work)
    _orphaned(orphans)
    return claimed


def message(mail: Claimed, settings: Settings) -> EmailMessage:
    """The mail as sent: plain text, the dashboard's address at the foot, one Message-ID."""
    domain = settings.mail_from.rpartition("@")[2]
    dashboard = f"{settings.public_url.rstrip('/')}/app"
    found = EmailMessage()
    found["From"] = settings.mail_from
    found["To"] = mail.to
    found["Subject"] = mail.subject
    found["Date"] = formatdate(usegmt=True)
    found["Message-ID"] = f"<{mail.uuid}@{domain}>"  # the same on every attempt
    found["Auto-Submitted"] = "auto-generated"
    footer = f"\n-- \nYour cards: {dashboard}\n"
    if mail.kind != "sign_in":
        footer += "Choose which mails you get: Settings → Notifications in the dashboard.\n"
    found.set_content(mail.body + footer)
    return found


@dataclass(frozen=True, slots=True)
class Outcome:
    status: str  # sent | pending (due again at next_at) | failed | in_doubt (the operator's)
    next_at: datetime
    error: str | None


def _outcome(mail: Claimed, error: MailFailed | None, now: datetime, rng: random.Random) -> Outcome:
    if error is None:
        return Outcome("sent", now, None)
    if isinstance(error, MailInDoubt):
        return Outcome("in_doubt", now, str(error))
    delay = None if isinstance(error, MailRefused) else _retry_delay(mail.attempt, rng)
    if delay is None or (mail.expires_at is not None and now + delay >= mail.expires_at):
        return Outcome("failed", now, str(error))
    return Outcome("pending", now + delay, str(error))


def _retry_delay(attempt: int, rng: random.Random) -> timedelta | None:
    if attempt > len(RETRY_SCHEDULE):
        return None
    return timedelta(seconds=RETRY_SCHEDULE[attempt - 1] * rng.uniform(1 - JITTER, 1 + JITTER))


async def send(
    db: Database, mail: Claimed, settings: Settings, server: SmtpServer
) -> MailFailed | None:
    """Hand one mail to the server, marked `in_doubt` before its DATA; the failure, or None
    when it took it. `MailAbandoned` when another attempt took the mail meanwhile."""
    if mail.kind == "sign_in" and mail.expires_at is not None and mail.expires_at <= utcnow():
        return MailRefused("the sign-in link would have expired")

    async def before_data() -> bool:
        return await db.transact(
            lambda tx: repository.hold_in_doubt(tx, mail.mail_id, mail.attempt)
        )

    try:
        await deliver(server, message(mail, settings), settings.smtp_timeout_seconds, before_data)
    except MailFailed as exc:
        return exc
    return None


async def record(db: Database, mail: Claimed, outcome: Outcome) -> None:
    """Write one attempt's outcome (only if the attempt still holds the mail); count it."""

    async def work(tx: Tx) -> bool:
        sent_at = outcome.next_at if outcome.status == "sent" else None
        return await repository.finish_mail(
            tx, mail.mail_id, mail.attempt, outcome.status, outcome.next_at, outcome.error, sent_at
        )  # in doubt: lease_until NULL, so no later claim hands it to the operator twice

    held = await db.transact(work)
    label = {"sent": "sent", "pending": "retrying"}.get(outcome.status, outcome.status)
    count_mail(mail.kind, label)
    extra: dict[str, Any] = {"mail_uuid": mail.uuid, "kind": mail.kind,
                             "attempt": mail.attempt, "outcome": label, "error": outcome.error,
                             "recorded": held}  # fmt: skip
    log.log(logging.INFO if label == "sent" else logging.WARNING, "mail attempt", extra=extra)


class MailCourier:
    """The background loop's mail step: claim due mails, send each in a task of its own (up to
    `CONCURRENCY` at once), record each as it ends."""

    def __init__(self, db: Database, settings: Settings) -> None:
        self._db, self._settings = db, settings
        ca_file = str(settings.smtp_ca_file) if settings.smtp_ca_file else None
        self._server = SmtpServer.from_url(settings.smtp_url, ca_file)
        self._rng = random.Random()  # noqa: S311 - retry jitter, not a secret
        self._in_flight: set[asyncio.Task[None]] = set()

    async def step(self) -> None:
        free = CONCURRENCY - len(self._in_flight)
        for mail in await claim(self._db, self._settings, free) if free > 0 else []:
            task = asyncio.create_task(self._attempt(mail))
            self._in_flight.add(task)
            task.add_done_callback(self._in_flight.discard)

    async def _attempt(self, mail: Claimed) -> None:
        try:
            error = await send(self._db, mail, self._settings, self._server)
            await record(self._db, mail, _outcome(mail, error, utcnow(), self._rng))
        except MailAbandoned:  # another attempt holds it: nothing was handed over
            log.warning("mail attempt abandoned", extra={"mail_uuid": mail.uuid})
        except Exception:  # the lease ends: taken again, or the operator's if in doubt
            log.exception("mail attempt not recorded", extra={"mail_uuid": mail.uuid})

    async def close(self) -> None:
        """Stop: the attempts in flight are abandoned (their leases end: taken again before
        DATA, the operator's after)."""
        for task in self._in_flight:
            task.cancel()
        await asyncio.gather(*self._in_flight, return_exceptions=True)
