"""Filling the mail queue from the events (docs/mail.md#when-mail-is-sent): in the unit that
numbers them (`events.outbox.sequence_events`, handed this queue's `queue_for_events` by
`runtime.database`), so each event's mails are queued exactly once, after the change
committed, and never on the request's path.

* `transaction.created` of a declined card purchase: `declined_payment` to its holder;
* `transaction.created` of an approved one at or above the holder's amount: `large_purchase`;
* `transaction.receipt_missing`: `receipt_reminder` to the purchase's holder;
* `team.request.approved` or `.declined`: `team_request_decided` to the member who asked;
* `team.request.created`: `request_to_decide` to each owner of the member's team.

A kind the person turned off, or a suspended person, gets nothing. The composition root
(`runtime.database`) gives the hook to a process's database when it mails
(`CARDSERVICE_SMTP_URL` set): without it nothing is queued, so no backlog waits for a server
configured later.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from decimal import Decimal
from typing import Any

from cardservice.db.sql import Row, Tx, as_uuid
from cardservice.ledger.minor_units import to_minor
from cardservice.mail import compose, repository
from cardservice.mail.records import stored_preferences
from cardservice.models.base import utcnow

SUBJECT_LIMIT = 200
APPROVED = ("pending", "completed")


def _wants(row: Row | Mapping[str, Any], kind: str) -> bool:
    return row["user_status"] == "active" and bool(stored_preferences(row)[kind])


def _purchase_mail(
    row: Row, data: dict[str, Any], last4: str | None
) -> tuple[str, tuple[str, str]] | None:
    """The mail a new card purchase brings its holder, if any: (kind, (subject, body))."""
    if data.get("type") != "card_purchase" or data.get("direction") != "debit":
        return None
    if data.get("status") == "declined":
        if not _wants(row, "declined_payment"):
            return None
        return "declined_payment", compose.declined_payment(data, last4)
    threshold = stored_preferences(row)["large_purchase_amount"]
    if data.get("status") not in APPROVED or not _wants(row, "large_purchase") or threshold is None:
        return None
    if to_minor(Decimal(str(data["amount"]))) < int(threshold):
        return None
    return "large_purchase", compose.large_purchase(data, last4, int(threshold))


class _Batch:
    """The mails of one batch of numbered events, as rows of `repository.MAIL_COLUMNS`."""

    def __init__(self, now: datetime) -> None:
        self.now = now
        self.rows: list[tuple[Any, ...]] = []

    def add(self, kind: str, user: Any, event_id: int, text: tuple[str, str]) -> None:
        subject, body = text
        self.rows.append((uuid.uuid4(), kind, as_uuid(user), event_id, subject[:SUBJECT_LIMIT],
                          body, "pending", 0, self.now, None, self.now))  # fmt: skip


def _transaction_mail(batch: _Batch, row: Row, data: dict[str, Any], last4: str | None) -> None:
    if row["type"] == "transaction.created":
        mail = _purchase_mail(row, data, last4)
        if mail is not None:
            batch.add(mail[0], row["user_uuid"], int(row["id"]), mail[1])
    elif _wants(row, "receipt_reminder"):
        text = compose.receipt_reminder(data, last4)
        batch.add("receipt_reminder", row["user_uuid"], int(row["id"]), text)


async def _request_mail(
    tx: Tx, batch: _Batch, row: Row, data: dict[str, Any], currency: str | None
) -> None:
    """A new request: a mail to each owner of the team; a decided one: to the member."""
    if row["type"] == "team.request.created":
        text = compose.request_to_decide(data, currency)
        for owner in await repository.team_owners(tx, row["team_uuid"]):
            if _wants(owner, "request_to_decide"):
                batch.add("request_to_decide", owner["user_uuid"], int(row["id"]), text)
    elif _wants(row, "team_request_decided"):
        text = compose.team_request_decided(data, currency)
        batch.add("team_request_decided", row["user_uuid"], int(row["id"]), text)


def _data(row: Row) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(row["data"], parse_float=Decimal)
    return found


async def _card_names(tx: Tx, events: Sequence[tuple[Row, dict[str, Any]]]) -> dict[str, str]:
    cards = {
        d["card_uuid"]
        for r, d in events
        if r["type"].startswith("transaction") and d.get("card_uuid")
    }
    return await repository.last_fours(tx, [uuid.UUID(c) for c in sorted(cards)])


async def _currencies(tx: Tx, events: Sequence[tuple[Row, dict[str, Any]]]) -> dict[str, str]:
    accounts = {
        (d.get("details") or {}).get("account_uuid")
        for r, d in events
        if r["type"].startswith("team.request") and d.get("kind") == "card"
    }
    return await repository.account_currencies(
        tx, [uuid.UUID(a) for a in sorted(a for a in accounts if a)]
    )


async def queue_for_events(tx: Tx, event_ids: Sequence[int]) -> None:
    """Queue the mails these newly numbered events bring (see the module's table)."""
    rows = await repository.mailable_events(tx, event_ids)
    if not rows:
        return
    events = [(row, _data(row)) for row in rows]
    last4 = await _card_names(tx, events)
    currencies = await _currencies(tx, events)
    batch = _Batch(utcnow())
    for row, data in events:
        if row["type"].startswith("transaction."):
            _transaction_mail(batch, row, data, last4.get(str(data.get("card_uuid"))))
        else:
            currency = currencies.get(str((data.get("details") or {}).get("account_uuid")))
            await _request_mail(tx, batch, row, data, currency)
    for start in range(0, len(batch.rows), 100):
        await repository.insert_mails(tx, batch.rows[start : start + 100])
