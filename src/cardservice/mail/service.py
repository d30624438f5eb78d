"""Notification preferences and the sign-in link by mail (docs/mail.md).

* Each person chooses which mails they get (`PUT /user/notifications`); the sign-in link is
  not optional. A large purchase is mailed from an amount the person chooses, compared with
  the purchase's amount in the purchase's own currency.
* `POST /app/sign-in {email}` answers the same whatever the address: the mail is queued after
  the answer (`request_sign_in`), only for an active user, at most `SIGN_IN_PER_WINDOW` in
  `SIGN_IN_WINDOW`, so the answer tells nothing and the address cannot be flooded. The link
  itself is made when the mail is sent (courier.py): no secret waits in the queue.
* A mail in doubt (docs/mail.md#delivery) is the operator's: `mails_in_doubt` lists them,
  `settle_in_doubt` records what the SMTP server's own log says — taken (`sent`) or not
  (`pending`: sent again, once, by the loop).
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from cardservice.db.database import Database
from cardservice.db.sql import Reader, Tx, as_datetime
from cardservice.errors import NotFound, ValidationFailed
from cardservice.infra.background import Job
from cardservice.ledger.minor_units import to_minor
from cardservice.mail import repository
from cardservice.mail.compose import sign_in_placeholder
from cardservice.mail.records import preferences_record, stored_preferences
from cardservice.mail.schemas import NotificationsRequest
from cardservice.models.base import utcnow
from cardservice.users import LINK_LIFETIME

SIGN_IN_WINDOW = timedelta(minutes=15)
SIGN_IN_PER_WINDOW = 5


async def get_preferences(reader: Reader | Tx, user_uuid: uuid.UUID) -> dict[str, Any]:
    """The person's preferences: what they chose, the defaults elsewhere."""
    return preferences_record(stored_preferences(await repository.preferences(reader, user_uuid)))


async def put_preferences(
    tx: Tx, user_uuid: uuid.UUID, body: NotificationsRequest, now: datetime
) -> dict[str, Any]:
    """Change the kinds sent (the others stay); a large-purchase mail needs an amount."""
    values = stored_preferences(await repository.preferences(tx, user_uuid))
    for name in body.model_fields_set - {"sign_in", "large_purchase_amount"}:
        values[name] = getattr(body, name)
    if "large_purchase_amount" in body.model_fields_set:
        amount = body.large_purchase_amount
        values["large_purchase_amount"] = None if amount is None else to_minor(amount)
    if values["large_purchase"] and values["large_purchase_amount"] is None:
        message = "choose the amount from which a purchase is mailed"
        raise ValidationFailed(errors={"large_purchase_amount": [message]})
    await repository.put_preferences(tx, user_uuid, values, now)
    return preferences_record(values)


async def request_sign_in(db: Database, email: str, now: datetime) -> bool:
    """Queue a sign-in mail for the active user with this address (not more than
    `SIGN_IN_PER_WINDOW` a window); whether one was queued. Unknown addresses queue nothing."""

    async def work(tx: Tx) -> bool:
        user = await repository.active_user_by_email(tx, email.strip().lower())
        if user is None:
            return False
        recent = await repository.mails_since(tx, user, "sign_in", now - SIGN_IN_WINDOW)
        if recent >= SIGN_IN_PER_WINDOW:
            return False
        subject, body = sign_in_placeholder()
        mail = (uuid.uuid4(), "sign_in", user, None, subject, body, "pending", 0, now,
                now + LINK_LIFETIME, now)  # fmt: skip
        await repository.insert_mails(tx, [mail])
        return True

    return await db.transact(work)


PRUNE_BATCH = 1000  # mails deleted in one unit: a short lock, and the loop goes on
PRUNE_EVERY_SECONDS = 3600.0


async def prune_mails(db: Database, now: datetime, keep: timedelta) -> int:
    """Delete the mails sent or given up more than `keep` ago (their record, docs/mail.md#delivery),
    in batches, each its own unit; a mail still pending is never deleted. How many."""
    pruned = 0
    while True:
        done = await db.transact(lambda tx: repository.prune(tx, now - keep, PRUNE_BATCH))
        pruned += done
        if done < PRUNE_BATCH:
            return pruned


async def _prune_now(db: Database) -> int:
    return await prune_mails(db, utcnow(), timedelta(days=db.settings.mail_retention_days))


MAIL_PRUNE_JOB = Job("mail_prune", lambda _settings: PRUNE_EVERY_SECONDS, _prune_now)
"""Delete the mails older than `CARDSERVICE_MAIL_RETENTION_DAYS`, hourly: a job of the
background loop (infra/background.py; `cardservice.runtime` lists it)."""


async def mails_in_doubt(reader: Reader, limit: int = 500) -> list[dict[str, Any]]:
    """The mails in doubt, oldest first: uuid (the `Message-ID`'s left part), kind, recipient
    (a user's uuid), attempts, the last error, when queued, and whether an attempt still
    holds it (its answer may yet come). Never an address, a subject or a text."""
    return [
        {
            "uuid": str(uuid.UUID(str(row["uuid"]))),
            "kind": row["kind"],
            "user_uuid": str(uuid.UUID(str(row["user_uuid"]))),
            "attempts": int(row["attempts"]),
            "last_error": row["last_error"],
            "created_at": as_datetime(row["created_at"]),
            "held": row["lease_until"] is not None,
        }
        for row in await repository.in_doubt(reader, limit)
    ]


async def settle_in_doubt(db: Database, mail_uuid: uuid.UUID, taken: bool, now: datetime) -> None:
    """The operator's word on a mail in doubt that no attempt holds: the SMTP server took it
    (`sent`), or it did not (`pending`, due now: the loop sends it once more, with the same
    `Message-ID`). NotFound: no such mail in doubt (or an attempt still holds it)."""
    status, sent_at = ("sent", now) if taken else ("pending", None)
    note = "settled by the operator: " + ("taken by the server" if taken else "sent again")

    async def work(tx: Tx) -> bool:
        return await repository.settle(tx, mail_uuid, status, now, sent_at, note)

    if not await db.transact(work):
        raise NotFound("no mail in doubt with this uuid (or an attempt still holds it)")
