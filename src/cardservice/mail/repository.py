"""The statements of `notification_preferences` and of the mail queue (`mails`), and the reads
of the people and cards a mail names."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from cardservice.db.sql import Reader, Row, Tx, in_list, insert_sql

PREFERENCE_COLUMNS = ("declined_payment", "large_purchase", "large_purchase_amount",
                      "team_request_decided", "receipt_reminder", "request_to_decide")  # fmt: skip
_PREFERENCES = (
    f"SELECT {', '.join(PREFERENCE_COLUMNS)} FROM notification_preferences"  # noqa: S608
    " WHERE user_uuid = $1"
)
_PUT_PREFERENCES = insert_sql(
    "notification_preferences",
    ("user_uuid", *PREFERENCE_COLUMNS, "updated_at"),
    suffix=" ON CONFLICT (user_uuid) DO UPDATE SET "
    + ", ".join(f"{c} = EXCLUDED.{c}" for c in (*PREFERENCE_COLUMNS, "updated_at")),
)


async def preferences(reader: Reader | Tx, user_uuid: uuid.UUID) -> Row | None:
    """The person's stored preferences (PREFERENCE_COLUMNS), or None: the defaults."""
    return await reader.row(_PREFERENCES, user_uuid)


async def put_preferences(
    tx: Tx, user_uuid: uuid.UUID, values: dict[str, Any], now: datetime
) -> None:
    """Store every preference (PREFERENCE_COLUMNS) of the person."""
    await tx.execute(_PUT_PREFERENCES, user_uuid, *(values[c] for c in PREFERENCE_COLUMNS), now)


# --- who a mail goes to, and what it names
_P = ", ".join(f"p.{c}" for c in PREFERENCE_COLUMNS)
_EVENTS = f"""
SELECT e.id, e.type, e.user_uuid, e.data, u.team_uuid, u.status AS user_status, {_P}
FROM events e JOIN users u ON u.uuid = e.user_uuid
LEFT JOIN notification_preferences p ON p.user_uuid = e.user_uuid
WHERE e.type IN ('transaction.created', 'transaction.receipt_missing', 'team.request.created',
                 'team.request.approved', 'team.request.declined') AND e.id IN """  # noqa: S608
_OWNERS = f"""
SELECT u.uuid AS user_uuid, u.status AS user_status, {_P} FROM users u
LEFT JOIN notification_preferences p ON p.user_uuid = u.uuid
WHERE u.team_uuid = $1 AND u.role = 'owner' ORDER BY u.uuid"""  # noqa: S608
_LAST4 = "SELECT uuid, last4 FROM cards WHERE uuid IN "
_ACTIVE_USER = "SELECT uuid FROM users WHERE email = $1 AND status = 'active'"
_RECENT = "SELECT count(*) FROM mails WHERE user_uuid = $1 AND kind = $2 AND created_at > $3"


async def mailable_events(tx: Tx, event_ids: Sequence[int]) -> Sequence[Row]:
    """Those of the events a mail may follow, with their owner's team, status and
    preferences (a NULL preference: the default)."""
    return await tx.rows(_EVENTS + in_list(len(event_ids)), *event_ids)


async def team_owners(tx: Tx, team_uuid: Any) -> Sequence[Row]:
    """The team's owners with their status and preferences."""
    return await tx.rows(_OWNERS, team_uuid)


async def last_fours(tx: Tx, card_uuids: Sequence[uuid.UUID]) -> dict[str, str]:
    """Card uuid (text) → its last four digits: all a mail ever shows of a card."""
    if not card_uuids:
        return {}
    rows = await tx.rows(_LAST4 + in_list(len(card_uuids)), *card_uuids)
    return {str(uuid.UUID(str(row["uuid"]))): row["last4"] for row in rows}


async def active_user_by_email(reader: Reader | Tx, email: str) -> uuid.UUID | None:
    found = await reader.value(_ACTIVE_USER, email)
    return None if found is None else uuid.UUID(str(found))


async def mails_since(tx: Tx, user_uuid: uuid.UUID, kind: str, since: datetime) -> int:
    """How many mails of `kind` were queued for the person since `since` (a limit)."""
    return int(await tx.value(_RECENT, user_uuid, kind, since) or 0)


# --- the queue
MAIL_COLUMNS = ("uuid", "kind", "user_uuid", "event_id", "subject", "body", "status",
                "attempts", "next_attempt_at", "expires_at", "created_at")  # fmt: skip


async def insert_mails(tx: Tx, mails: Sequence[tuple[Any, ...]]) -> None:
    """Queue mails (MAIL_COLUMNS each); one of a kind per event and person, once."""
    args = [value for mail in mails for value in mail]
    sql = insert_sql("mails", MAIL_COLUMNS, len(mails), " ON CONFLICT DO NOTHING")
    await tx.execute(sql, *args)


_DUE = """
SELECT id FROM mails
WHERE status = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until < $1)
ORDER BY next_attempt_at, id LIMIT $3"""
_ANY_DUE = """
SELECT 1 FROM mails WHERE status = 'pending' AND next_attempt_at <= $1
  AND (lease_until IS NULL OR lease_until < $1)
UNION ALL SELECT 1 FROM mails WHERE status = 'in_doubt' AND lease_until < $1 LIMIT 1"""
_CLAIM_PG = f"""
UPDATE mails m SET attempts = m.attempts + 1, lease_until = $2
FROM ({_DUE} FOR UPDATE SKIP LOCKED) due WHERE m.id = due.id RETURNING m.id"""  # noqa: S608
_CLAIM_SQLITE = f"""
UPDATE mails SET attempts = attempts + 1, lease_until = $2
WHERE id IN ({_DUE}) RETURNING id"""  # noqa: S608
_CLAIMED = """
SELECT m.id, m.uuid, m.kind, m.user_uuid, m.subject, m.body, m.attempts, m.expires_at,
       m.created_at, u.email
FROM mails m JOIN users u ON u.uuid = m.user_uuid WHERE m.id IN """
_FINISH = """
UPDATE mails SET status = $3, next_attempt_at = $4, lease_until = NULL, last_error = $5,
  sent_at = $6
WHERE id = $1 AND attempts = $2 RETURNING id"""
_DOUBT = """
UPDATE mails SET status = 'in_doubt' WHERE id = $1 AND attempts = $2 AND status = 'pending'
RETURNING id"""
# attempts that ended in doubt without a word (their loop died): the operator's from now on
_ORPHANS = """
UPDATE mails SET lease_until = NULL, last_error = $2
WHERE id IN (SELECT id FROM mails WHERE status = 'in_doubt' AND lease_until < $1
             ORDER BY lease_until, id LIMIT 100)
  AND status = 'in_doubt' AND lease_until < $1
RETURNING uuid, kind, attempts"""  # the outer test again: of two loops at once, one hands it
_IN_DOUBT = """
SELECT m.uuid, m.kind, m.user_uuid, m.attempts, m.last_error, m.created_at, m.lease_until
FROM mails m WHERE m.status = 'in_doubt' ORDER BY m.id LIMIT $1"""
_SETTLE = """
UPDATE mails SET status = $2, next_attempt_at = $3, sent_at = $4, last_error = $5
WHERE uuid = $1 AND status = 'in_doubt' AND lease_until IS NULL RETURNING id"""


async def any_due(reader: Reader, now: datetime) -> bool:
    return await reader.value(_ANY_DUE, now) is not None


async def claim_due(tx: Tx, now: datetime, lease_until: datetime, limit: int) -> Sequence[Row]:
    """Lease up to `limit` due mails (one more attempt each; on PostgreSQL the rows another
    loop holds are skipped); the claimed mails with their recipient's address."""
    sql = _CLAIM_SQLITE if tx.dialect == "sqlite" else _CLAIM_PG
    ids = [int(row["id"]) for row in await tx.rows(sql, now, lease_until, limit)]
    if not ids:
        return []
    return await tx.rows(_CLAIMED + in_list(len(ids)), *ids)


async def finish_mail(
    tx: Tx,
    mail_id: int,
    attempt: int,
    status: str,
    next_at: datetime,
    error: str | None,
    sent_at: datetime | None,
) -> bool:
    """Write an attempt's outcome where that attempt still holds the mail (`attempts`
    unchanged); whether it did."""
    return await tx.row(_FINISH, mail_id, attempt, status, next_at, error, sent_at) is not None


_ACCOUNT_CURRENCIES = "SELECT uuid, currency FROM accounts WHERE uuid IN "


async def hold_in_doubt(tx: Tx, mail_id: int, attempt: int) -> bool:
    """Mark the mail `in_doubt` before its DATA command goes out, where this attempt still
    holds it; whether it did (else the attempt must not send)."""
    return await tx.row(_DOUBT, mail_id, attempt) is not None


async def orphans_in_doubt(tx: Tx, now: datetime, error: str) -> Sequence[Row]:
    """Hand the operator the mails in doubt whose attempt's lease ended with no outcome
    written (up to 100 a call): `uuid, kind, attempts` of each."""
    return await tx.rows(_ORPHANS, now, error)


async def in_doubt(reader: Reader | Tx, limit: int) -> Sequence[Row]:
    """The mails in doubt, oldest first (an attempt may still hold one: `lease_until`)."""
    return await reader.rows(_IN_DOUBT, limit)


async def settle(
    tx: Tx,
    mail_uuid: uuid.UUID,
    status: str,
    next_at: datetime,
    sent_at: datetime | None,
    note: str,
) -> bool:
    """Settle a mail in doubt no attempt holds (`sent`, or `pending` to send it again);
    whether there was one."""
    return await tx.row(_SETTLE, mail_uuid, status, next_at, sent_at, note) is not None


async def account_currencies(tx: Tx, account_uuids: Sequence[uuid.UUID]) -> dict[str, str]:
    """Account uuid (text) → its currency."""
    if not account_uuids:
        return {}
    rows = await tx.rows(_ACCOUNT_CURRENCIES + in_list(len(account_uuids)), *account_uuids)
    return {str(uuid.UUID(str(row["uuid"]))): row["currency"] for row in rows}


# a batch of sent or given-up mails created before $1 (never one pending or in doubt)
_PRUNE = """
DELETE FROM mails WHERE id IN (
  SELECT id FROM mails WHERE status IN ('sent', 'failed') AND created_at < $1 ORDER BY id LIMIT $2
) RETURNING id"""


async def prune(tx: Tx, before: datetime, limit: int) -> int:
    """Delete up to `limit` mails sent or given up and created before `before`; how many."""
    return len(await tx.rows(_PRUNE, before, limit))
