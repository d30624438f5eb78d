"""Reading disputes: one by uuid, and the paginated list (the caller's own only)."""

from __future__ import annotations

import uuid
from typing import Any

from cardservice.disputes.records import NEWEST_FIRST, dispute_columns, dispute_record
from cardservice.errors import DisputeNotFound
from cardservice.pages import Offset, paginate
from cardservice.sql import Reader

DISPUTE_COLUMNS = dispute_columns("d")
# The statements of disputes.service's writes.
OPEN_DISPUTE = "SELECT 1 FROM disputes WHERE transaction_uuid = $1 AND status = 'open'"
DISPUTE_OF_USER = "SELECT transaction_uuid FROM disputes WHERE uuid = $1 AND user_uuid = $2"
LOCK_DISPUTE = f"SELECT {DISPUTE_COLUMNS} FROM disputes d WHERE d.uuid = $1 FOR NO KEY UPDATE"  # noqa: S608
RESOLVE = """
UPDATE disputes SET status = $2, resolved_at = $3, updated_at = $3, credit_transaction_uuid = $4
WHERE uuid = $1"""
EVIDENCE_COUNT = "SELECT count(*) FROM attachments WHERE user_uuid = $1 AND uuid IN "


def _where(user_uuid: uuid.UUID, filters: dict[str, Any]) -> tuple[str, list[Any]]:
    clauses, args = ["d.user_uuid = $1"], [user_uuid]
    for key in ("status", "transaction_uuid"):
        if key in filters:
            args.append(filters[key])
            clauses.append(f"d.{key} = ${len(args)}")
    return " AND ".join(clauses), args


async def list_disputes(
    reader: Reader, user_uuid: uuid.UUID, filters: dict[str, Any], offset: int, limit: int
) -> tuple[list[dict[str, Any]], int]:
    """The user's disputes, newest first (ties by uuid), and how many match."""
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
