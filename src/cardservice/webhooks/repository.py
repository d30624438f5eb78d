"""The statements of the webhook tables (webhook_endpoints, webhook_deliveries,
webhook_attempts): service.py, queue.py and delivery.py hold the rules.

An endpoint's owner is a user, or nobody (`user_uuid` NULL): the operator's program-wide
endpoints, which receive every event."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from cardservice.auth import Principal
from cardservice.db.paging import Offset, paginate
from cardservice.db.sql import Reader, Row, Tx, in_list, insert_sql, text_uuid
from cardservice.events import EVENT_COLUMNS, visible_to

ENDPOINT_COLUMNS = (
    "uuid, url, description, event_types, enabled, secret_ciphertext, created_at, updated_at"
)
_INSERT_ENDPOINT = insert_sql(
    "webhook_endpoints",
    ("uuid", "user_uuid", "url", "description", "event_types", "enabled", "secret_ciphertext",
     "created_at", "updated_at"),
)  # fmt: skip
_OWN = f"SELECT {ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE uuid = $1 AND user_uuid = $2"  # noqa: S608
_PROGRAM_WIDE = (
    f"SELECT {ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE uuid = $1 AND user_uuid IS NULL"  # noqa: S608
)
_UPDATE = """
UPDATE webhook_endpoints SET url = $2, description = $3, event_types = $4, enabled = $5,
    updated_at = $6 WHERE uuid = $1"""
_ROTATE = """
UPDATE webhook_endpoints SET previous_secret_ciphertext = secret_ciphertext,
    previous_secret_expires_at = $2, secret_ciphertext = $3, updated_at = $4 WHERE uuid = $1"""
_DELETE = "DELETE FROM webhook_endpoints WHERE uuid = $1"


async def insert_endpoint(
    tx: Tx,
    endpoint: uuid.UUID,
    user: uuid.UUID | None,
    url: str,
    description: str | None,
    event_types: str | None,
    secret: bytes,
    now: datetime,
) -> None:
    """A new enabled endpoint (`event_types` as JSON text, None for every type; `user` None:
    program-wide)."""
    await tx.execute(
        _INSERT_ENDPOINT, endpoint, user, url, description, event_types, True, secret, now, now
    )


async def own_endpoint(
    source: Reader | Tx, user: uuid.UUID | None, endpoint: uuid.UUID, *, for_update: bool = False
) -> Row | None:
    """One of the user's endpoints, or (`user` None) a program-wide one (ENDPOINT_COLUMNS;
    locked when it will be written)."""
    lock = " FOR UPDATE" if for_update else ""
    if user is None:
        return await source.row(_PROGRAM_WIDE + lock, endpoint)
    return await source.row(_OWN + lock, endpoint, user)


async def page_of_endpoints(
    reader: Reader, user: uuid.UUID | None, offset: int, limit: int
) -> tuple[Sequence[Row], int]:
    """A page of the user's endpoints (`user` None: the program-wide ones), oldest first, and
    their count."""
    where = "user_uuid IS NULL" if user is None else "user_uuid = $1"
    return await paginate(
        reader,
        f"SELECT {ENDPOINT_COLUMNS}, $TOTAL AS total FROM webhook_endpoints"  # noqa: S608
        f" WHERE {where} ORDER BY created_at, uuid",
        [] if user is None else [user],
        Offset(offset, limit),
        count=f"SELECT count(*) FROM webhook_endpoints WHERE {where}",  # noqa: S608
    )


async def update_endpoint(
    tx: Tx,
    endpoint: uuid.UUID,
    url: str,
    description: str | None,
    event_types: str | None,
    enabled: bool,
    now: datetime,
) -> None:
    await tx.execute(_UPDATE, endpoint, url, description, event_types, enabled, now)


async def rotate_secret(
    tx: Tx, endpoint: uuid.UUID, secret: bytes, previous_until: datetime, now: datetime
) -> None:
    """`secret` becomes the endpoint's; the one it had signs beside it until `previous_until`."""
    await tx.execute(_ROTATE, endpoint, previous_until, secret, now)


async def delete_endpoint(tx: Tx, endpoint: uuid.UUID) -> None:
    """The endpoint goes, with its queue and its attempt log (the foreign keys cascade)."""
    await tx.execute(_DELETE, endpoint)


_ATTEMPTS = """
SELECT event_uuid, attempt, status_code, error, duration_ms, next_attempt_at, created_at,
       $TOTAL AS total
FROM webhook_attempts WHERE endpoint_uuid = $1 ORDER BY id DESC"""


async def page_of_attempts(
    reader: Reader, endpoint: uuid.UUID, offset: int, limit: int
) -> tuple[Sequence[Row], int]:
    """A page of the endpoint's delivery attempts, newest first, and their count."""
    return await paginate(
        reader,
        _ATTEMPTS,
        [endpoint],
        Offset(offset, limit),
        count="SELECT count(*) FROM webhook_attempts WHERE endpoint_uuid = $1",
    )


# The queue: who receives an event — the endpoints of its owner and of the owner's team owners,
# and the program-wide ones.
_RECIPIENTS = """
SELECT w.uuid, w.event_types, u.uuid AS user_uuid FROM users u
JOIN users o ON o.uuid = u.uuid
    OR (u.team_uuid IS NOT NULL AND o.team_uuid = u.team_uuid AND o.role = 'owner')
JOIN webhook_endpoints w ON w.user_uuid = o.uuid AND w.enabled
WHERE u.uuid IN """
_DELIVERY_COLUMNS = ("endpoint_uuid", "event_id", "status", "attempts", "next_attempt_at",
                     "created_at")  # fmt: skip


async def recipients(tx: Tx, users: Sequence[uuid.UUID | None]) -> Sequence[Row]:
    """The enabled endpoints (uuid, event_types) that receive the events of each of `users`
    (user_uuid)."""
    return await tx.rows(_RECIPIENTS + in_list(len(users)), *users)


_PROGRAM_WIDE_RECIPIENTS = (
    "SELECT uuid, event_types FROM webhook_endpoints WHERE user_uuid IS NULL AND enabled"
)


async def program_wide_recipients(tx: Tx) -> Sequence[Row]:
    """The enabled program-wide endpoints (uuid, event_types): they receive every event."""
    return await tx.rows(_PROGRAM_WIDE_RECIPIENTS)


async def insert_deliveries(tx: Tx, pairs: Sequence[tuple[uuid.UUID, int]], now: datetime) -> None:
    """A pending delivery, due now, for each (endpoint, event id): one statement."""
    args: list[Any] = []
    for endpoint, event_id in pairs:
        args += [endpoint, event_id, "pending", 0, now, now]
    await tx.execute(insert_sql("webhook_deliveries", _DELIVERY_COLUMNS, len(pairs)), *args)


async def replayable_events(
    tx: Tx,
    caller: Principal | None,
    endpoint: uuid.UUID,
    since: datetime,
    until: datetime | None,
) -> Sequence[Row]:
    """The numbered events (id, type) the caller may read (`caller` None: a program-wide
    endpoint's, every event) created in [since, until) that the endpoint neither received
    with a 2xx nor waits for, in sequence order."""
    visible, args = ("TRUE", []) if caller is None else visible_to(caller, 3)
    window = "e.created_at >= $2" + (f" AND e.created_at < ${len(args) + 3}" if until else "")
    return await tx.rows(
        f"SELECT e.id, e.type FROM events e WHERE e.sequence IS NOT NULL AND {window} "  # noqa: S608
        f"AND {visible} AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d "
        "WHERE d.event_id = e.id AND d.endpoint_uuid = $1 "
        "AND d.status IN ('delivered', 'pending')) ORDER BY e.sequence",
        endpoint,
        since,
        *args,
        *([until] if until else []),
    )


# The delivery loop.
_DUE = """
SELECT id FROM webhook_deliveries
WHERE status = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until < $1)
  AND endpoint_uuid IN (SELECT uuid FROM webhook_endpoints WHERE enabled)
ORDER BY next_attempt_at, id LIMIT $3"""
_ANY_DUE = """
SELECT 1 FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= $1
  AND (lease_until IS NULL OR lease_until < $1) LIMIT 1"""
_CLAIM_PG = f"""
UPDATE webhook_deliveries d SET attempts = d.attempts + 1, lease_until = $2
FROM ({_DUE} FOR UPDATE SKIP LOCKED) due WHERE d.id = due.id RETURNING d.id"""  # noqa: S608
_CLAIM_SQLITE = f"""
UPDATE webhook_deliveries SET attempts = attempts + 1, lease_until = $2
WHERE id IN ({_DUE}) RETURNING id"""  # noqa: S608
_CLAIMED = f"""
SELECT d.id AS delivery_id, d.attempts, w.uuid AS endpoint_uuid, w.url, w.secret_ciphertext,
       w.previous_secret_ciphertext, w.previous_secret_expires_at, {EVENT_COLUMNS}
FROM webhook_deliveries d JOIN webhook_endpoints w ON w.uuid = d.endpoint_uuid
JOIN events e ON e.id = d.event_id WHERE d.id IN """  # noqa: S608
_ATTEMPT_COLUMNS = ("delivery_id", "endpoint_uuid", "event_uuid", "attempt", "status_code",
                    "error", "duration_ms", "next_attempt_at", "created_at")  # fmt: skip
_FINISH_ONE = """
UPDATE webhook_deliveries SET status = $3, next_attempt_at = $4, lease_until = NULL
WHERE id = $1 AND attempts = $2"""
_FINISH_PG = """
UPDATE webhook_deliveries d SET status = v.status, next_attempt_at = v.next_at, lease_until = NULL
FROM unnest(CAST($1 AS bigint[]), CAST($2 AS int[]), CAST($3 AS text[]),
            CAST($4 AS timestamptz[])) AS v(id, attempts, status, next_at)
WHERE d.id = v.id AND d.attempts = v.attempts"""


async def any_due(reader: Reader, now: datetime) -> bool:
    """Whether a pending delivery is due and not leased at `now`."""
    return await reader.value(_ANY_DUE, now) is not None


async def claim_due(tx: Tx, now: datetime, lease_until: datetime, limit: int) -> Sequence[Row]:
    """Lease up to `limit` due deliveries of enabled endpoints (one more attempt each; on
    PostgreSQL the rows another worker holds are skipped); the claimed deliveries with their
    endpoint and event (`EVENT_COLUMNS`)."""
    sql = _CLAIM_SQLITE if tx.dialect == "sqlite" else _CLAIM_PG
    ids = [int(row["id"]) for row in await tx.rows(sql, now, lease_until, limit)]
    if not ids:
        return []
    return await tx.rows(_CLAIMED + in_list(len(ids)), *ids)


async def lock_endpoints(tx: Tx, endpoints: Sequence[uuid.UUID]) -> set[str]:
    """Lock those of `endpoints` that still exist, in uuid order; their uuids as text."""
    rows = await tx.rows(
        f"SELECT uuid FROM webhook_endpoints WHERE uuid IN {in_list(len(endpoints))} "  # noqa: S608
        "ORDER BY uuid FOR NO KEY UPDATE",
        *sorted(endpoints, key=str),
    )
    return {str(text_uuid(row["uuid"])) for row in rows}


async def insert_attempts(tx: Tx, attempts: Sequence[tuple[Any, ...]]) -> None:
    """The attempt log's rows (`_ATTEMPT_COLUMNS` each), in one statement."""
    args = [value for attempt in attempts for value in attempt]
    await tx.execute(insert_sql("webhook_attempts", _ATTEMPT_COLUMNS, len(attempts)), *args)


async def finish_deliveries(tx: Tx, finished: Sequence[tuple[int, int, str, datetime]]) -> None:
    """(delivery, attempt, status, next attempt at) of each delivery, written only where that
    attempt still holds it (`attempts` unchanged): one statement on PostgreSQL."""
    if tx.dialect == "sqlite":
        for delivery_id, attempt, status, next_at in finished:
            await tx.execute(_FINISH_ONE, delivery_id, attempt, status, next_at)
        return
    ids, attempts, statuses, next_ats = (list(column) for column in zip(*finished, strict=True))
    await tx.execute(_FINISH_PG, ids, attempts, statuses, next_ats)
