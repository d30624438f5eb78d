"""Reading disputes: one by uuid, and the paginated list (the caller's own only)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from cardservice.db.paging import Offset, paginate
from cardservice.db.sql import Reader, Row, Tx, as_uuid, in_list, insert_sql, row_args
from cardservice.disputes.records import (
    DISPUTE_FIELDS,
    NEWEST_FIRST,
    dispute_columns,
    dispute_record,
)
from cardservice.errors import DisputeNotFound
from cardservice.models import Dispute
from cardservice.models.base import table_of
from cardservice.models.dispute import ACTIVE_STATUSES
from cardservice.models.event import WRITTEN_EVENT_COLUMNS, written_event

DISPUTE_COLUMNS = dispute_columns("d")
# The statements of disputes.service's writes.
_OPEN_DISPUTE = (
    "SELECT 1 FROM disputes WHERE transaction_uuid = $1"  # noqa: S608 - the statuses are constants
    f" AND status IN ({', '.join(repr(s) for s in ACTIVE_STATUSES)})"
)
_DISPUTE_OF_USER = "SELECT transaction_uuid FROM disputes WHERE uuid = $1 AND user_uuid = $2"
_LOCK_DISPUTE = f"SELECT {DISPUTE_COLUMNS} FROM disputes d WHERE d.uuid = $1 FOR NO KEY UPDATE"  # noqa: S608
_OWNER = "SELECT user_uuid, transaction_uuid FROM disputes WHERE uuid = $1"
# the columns a step of the dispute changes (`save`)
_CHANGING = (
    "status", "resolved_at", "updated_at", "credit_transaction_uuid", "to_send", "deadline_at",
    "chargeback", "representment", "pre_arbitration", "history", "provisional", "claimed",
)  # fmt: skip
_SAVE = (
    "UPDATE disputes SET "  # noqa: S608 - the columns are this module's constants
    + ", ".join(f"{name} = ${i}" for i, name in enumerate(_CHANGING, start=2))
    + " WHERE uuid = $1"
)
_TYPES = {
    "uuid": "uuid", "status": "text", "resolved_at": "timestamptz", "updated_at": "timestamptz",
    "credit_transaction_uuid": "uuid", "to_send": "text", "deadline_at": "timestamptz",
    "chargeback": "text", "representment": "text", "pre_arbitration": "text", "history": "text",
    "provisional": "bigint", "claimed": "bigint",
}  # fmt: skip
# PostgreSQL: the same columns of many disputes in one statement
_SAVE_ALL_PG = (
    "UPDATE disputes d SET "  # noqa: S608 - the columns are this module's constants
    + ", ".join(f"{name} = v.{name}" for name in _CHANGING)
    + " FROM unnest("
    + ", ".join(
        f"CAST(${i} AS {_TYPES[name]}[])" for i, name in enumerate(("uuid", *_CHANGING), start=1)
    )
    + f") AS v(uuid, {', '.join(_CHANGING)}) WHERE d.uuid = v.uuid"
)
_PROGRAM_CREDIT = (
    "SELECT p.provisional_credit FROM users u JOIN programs p ON p.uuid = u.program_uuid"
    " WHERE u.uuid = $1"
)
# the disputes the next outgoing file carries, in the file's order, with their card number
# and the wallet token the purchase was paid with (JSON {uuid, wallet, last4}, or NULL)
_TO_SEND = f"""
SELECT {DISPUTE_COLUMNS}, d.user_uuid, c.pan_ciphertext, t.token
FROM disputes d JOIN transactions t ON t.uuid = d.transaction_uuid
JOIN cards c ON c.uuid = t.card_uuid
WHERE d.to_send IS NOT NULL
ORDER BY d.created_at, d.uuid FOR UPDATE OF d"""  # noqa: S608
_BY_ARN = f"""
SELECT {DISPUTE_COLUMNS}, d.user_uuid FROM disputes d WHERE d.arn = $1
ORDER BY d.created_at DESC, d.uuid DESC LIMIT 1"""  # noqa: S608
_DUE = """
SELECT uuid FROM disputes
WHERE status IN ('chargeback_sent', 'pre_arbitration') AND to_send IS NULL AND deadline_at <= $1
AND (pre_arbitration IS NULL OR pre_arbitration NOT LIKE '%"answer":"declined"%')
ORDER BY deadline_at, uuid"""
_DPANS = "SELECT uuid, dpan_ciphertext FROM card_tokens WHERE uuid IN "
_EVIDENCE_COUNT = "SELECT count(*) FROM attachments WHERE user_uuid = $1 AND uuid IN "


_TABLE = table_of(Dispute)
_COLUMNS = ("user_uuid", *DISPUTE_FIELDS)
_INSERT = insert_sql(_TABLE.name, _COLUMNS)


async def evidence_count(tx: Tx, user_uuid: uuid.UUID, evidence: list[uuid.UUID]) -> int:
    """How many of the attachments `evidence` (at least one) are the user's own."""
    sql = _EVIDENCE_COUNT + in_list(len(evidence), 2)
    return int(await tx.value(sql, user_uuid, *evidence))


async def has_open_dispute(tx: Tx, transaction_uuid: uuid.UUID) -> bool:
    """The transaction has a dispute not decided yet."""
    return await tx.value(_OPEN_DISPUTE, transaction_uuid) is not None


async def insert_dispute(tx: Tx, dispute: dict[str, Any]) -> None:
    """Insert the dispute (its `user_uuid` and every field of its record)."""
    await tx.execute(_INSERT, *(dispute[column] for column in _COLUMNS))


async def dispute_transaction(tx: Tx, dispute_uuid: uuid.UUID, user_uuid: uuid.UUID) -> Any:
    """The transaction of the user's dispute, or None when it is not theirs."""
    return await tx.value(_DISPUTE_OF_USER, dispute_uuid, user_uuid)


async def lock_dispute(tx: Tx, dispute_uuid: uuid.UUID) -> Row | None:
    """The dispute's fields (`DISPUTE_FIELDS` order), its row locked."""
    return await tx.row(_LOCK_DISPUTE, dispute_uuid)


async def dispute_owner(tx: Tx | Reader, dispute_uuid: uuid.UUID) -> Row | None:
    """The dispute's `user_uuid` and `transaction_uuid` (None: no such dispute)."""
    return await tx.row(_OWNER, dispute_uuid)


async def save(tx: Tx, dispute: dict[str, Any]) -> None:
    """Write the columns a step changes (the dispute's row is locked)."""
    await tx.execute(_SAVE, dispute["uuid"], *(dispute[name] for name in _CHANGING))


async def save_all(tx: Tx, disputes: list[dict[str, Any]]) -> None:
    """`save` for many disputes (their rows locked): one statement on PostgreSQL."""
    if tx.dialect != "postgresql":
        for dispute in disputes:
            await save(tx, dispute)
        return
    if disputes:
        columns = [[d[name] for d in disputes] for name in ("uuid", *_CHANGING)]
        await tx.execute(_SAVE_ALL_PG, *columns)


async def record_updated(tx: Tx, disputes: list[tuple[Any, Any]], now: datetime) -> None:
    """A `dispute.updated` for each `(dispute uuid, user uuid)` (as read) whose step kept its
    status (a change of status is its trigger's, docs/events.md): inserted as the trigger
    inserts one, its data the dispute's record when the unit commits. One statement."""
    if disputes:
        rows = [
            written_event("dispute.updated", user, "dispute", d, now, None) for d, user in disputes
        ]
        sql = insert_sql("events", WRITTEN_EVENT_COLUMNS, len(rows))
        await tx.execute(sql, *row_args(WRITTEN_EVENT_COLUMNS, rows))


async def program_gives_credit(tx: Tx, user_uuid: uuid.UUID) -> bool:
    """The user's program credits a dispute when it is opened (no program: no)."""
    return bool(await tx.value(_PROGRAM_CREDIT, user_uuid))


async def to_send(tx: Tx) -> list[Row]:
    """The disputes waiting for the outgoing file (dispute fields, `user_uuid`,
    `pan_ciphertext`, the purchase's `token`), their rows locked, oldest first."""
    return list(await tx.rows(_TO_SEND))


async def dpans(tx: Tx, token_uuids: list[uuid.UUID]) -> dict[uuid.UUID, bytes]:
    """The encrypted DPAN of each wallet token (deleted ones too), by the token's uuid."""
    if not token_uuids:
        return {}
    rows = await tx.rows(_DPANS + in_list(len(token_uuids)), *token_uuids)
    return {as_uuid(row["uuid"]): bytes(row["dpan_ciphertext"]) for row in rows}  # type: ignore[misc]


async def by_arn(tx: Tx, arn: str) -> Row | None:
    """The latest dispute of the purchase with this ARN (dispute fields, `user_uuid`)."""
    return await tx.row(_BY_ARN, arn)


async def due(reader: Reader, now: datetime) -> list[Any]:
    """The uuids of the chargebacks and pre-arbitrations unanswered at their deadline."""
    return [row[0] for row in await reader.rows(_DUE, now)]


def _where(user_uuid: uuid.UUID | None, filters: dict[str, Any]) -> tuple[str, list[Any]]:
    """The list's WHERE over `d`: one user's disputes, or every user's (None, the operator's)."""
    clauses: list[str] = [] if user_uuid is None else ["d.user_uuid = $1"]
    args: list[Any] = [] if user_uuid is None else [user_uuid]
    for key in ("status", "transaction_uuid"):
        if key in filters:
            args.append(filters[key])
            clauses.append(f"d.{key} = ${len(args)}")
    return " AND ".join(clauses) or "1 = 1", args


async def list_disputes(
    reader: Reader, user_uuid: uuid.UUID | None, filters: dict[str, Any], offset: int, limit: int
) -> tuple[list[dict[str, Any]], int]:
    """The user's disputes (`user_uuid` None: every user's, the operator console's), newest
    first (ties by uuid), and how many match."""
    where, args = _where(user_uuid, filters)
    rows, total = await paginate(
        reader,
        f"SELECT {DISPUTE_COLUMNS}, $TOTAL AS total FROM disputes d WHERE {where} {NEWEST_FIRST}",  # noqa: S608
        args,
        Offset(offset, limit),
        count=f"SELECT count(*) FROM disputes d WHERE {where}",  # noqa: S608
        walk=True,
    )
    return [dispute_record(row) for row in rows], total


async def one_dispute(
    reader: Reader, user_uuid: uuid.UUID, dispute_uuid: uuid.UUID
) -> dict[str, Any]:
    """One of the user's disputes as its record; anybody else's is 404."""
    row = await reader.row(
        f"SELECT {DISPUTE_COLUMNS} FROM disputes d WHERE d.uuid = $1 AND d.user_uuid = $2",  # noqa: S608
        dispute_uuid,
        user_uuid,
    )
    if row is None:
        raise DisputeNotFound()
    return dispute_record(row)
