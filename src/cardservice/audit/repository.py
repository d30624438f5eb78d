"""Statements of the audit trail: one insert, in the unit of the action it records (so
there is no action without its row, and no row of an action rolled back), and one list.

Generic on purpose: any channel records through `record_audit` (a card reveal by its holder,
an operator's write through the operator API) and any reader lists through `page_of_audit`.
Never pass a secret in `details`: no card number, CVV2, code or token. `details` are written
by the service's one JSON encoder (cardservice.encoding), so an amount given as the API gives
it (`ledger.minor_units.from_minor`: a Decimal) reads `500.00`, never minor units.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cardservice.db.paging import Keyset, Offset, paginate
from cardservice.db.sql import Reader, Row, Tx, as_datetime
from cardservice.encoding import dumps
from cardservice.models.base import utcnow

AUDIT_FIELDS = ("uuid", "created_at", "actor_type", "actor_id", "action", "object_type",
                "object_uuid", "request_id", "details")  # fmt: skip
_INSERT = (
    f"INSERT INTO audit_log ({', '.join(AUDIT_FIELDS)})"  # noqa: S608 - our names
    f" VALUES ({', '.join(f'${i}' for i in range(1, len(AUDIT_FIELDS) + 1))})"
)


@dataclass(frozen=True, slots=True)
class Actor:
    """Who acted: `user` (with the user's uuid), `operator_key` (with the key's id), `console`
    (an operator console session, with its uuid), or `system` (the CLI's `cli`, or none)."""

    type: str
    id: str | None = None

    @classmethod
    def user(cls, user_uuid: uuid.UUID) -> Actor:
        return cls("user", str(user_uuid))


async def record_audit(
    tx: Tx,
    actor: Actor,
    action: str,
    object_type: str,
    object_uuid: uuid.UUID | None,
    *,
    request_id: str | None = None,
    details: Mapping[str, Any] | None = None,
    at: datetime | None = None,
) -> uuid.UUID:
    """Append one row to the trail in the caller's unit; its uuid."""
    entry = uuid.uuid4()
    await tx.execute(
        _INSERT,
        entry,
        at or utcnow(),
        actor.type,
        actor.id,
        action,
        object_type,
        object_uuid,
        request_id,
        dumps(dict(details)).decode() if details is not None else None,
    )
    return entry


async def count_actions_since(
    reader: Reader | Tx, action: str, object_type: str, object_uuid: uuid.UUID, since: datetime
) -> int:
    """How many times `action` was recorded on the object since `since` (a rate limit)."""
    return int(
        await reader.value(
            "SELECT count(*) FROM audit_log WHERE object_type = $1 AND object_uuid = $2"
            " AND action = $3 AND created_at > $4",
            object_type,
            object_uuid,
            action,
            since,
        )
    )


async def action_times_since(
    reader: Reader | Tx, action: str, object_type: str, object_uuid: uuid.UUID, since: datetime
) -> list[datetime]:
    """When `action` was recorded on the object since `since`, oldest first."""
    rows = await reader.rows(
        "SELECT created_at FROM audit_log WHERE object_type = $1 AND object_uuid = $2"
        " AND action = $3 AND created_at > $4 ORDER BY created_at",
        object_type,
        object_uuid,
        action,
        since,
    )
    return [as_datetime(row["created_at"]) or since for row in rows]


@dataclass(frozen=True, slots=True)
class AuditFilters:
    """Every field optional; set ones are ANDed. `since` inclusive, `until` exclusive."""

    actor_type: str | None = None
    actor_id: str | None = None
    action: str | None = None
    object_type: str | None = None
    object_uuid: uuid.UUID | None = None
    since: datetime | None = None
    until: datetime | None = None


def _where(filters: AuditFilters) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    args: list[Any] = []
    for column, operator in (("actor_type", "="), ("actor_id", "="), ("action", "="),
                             ("object_type", "="), ("object_uuid", "="),
                             ("since", ">="), ("until", "<")):  # fmt: skip
        value = getattr(filters, column)
        if value is not None:
            args.append(value)
            name = "created_at" if column in ("since", "until") else column
            clauses.append(f"{name} {operator} ${len(args)}")
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", args


async def page_of_audit(
    reader: Reader, filters: AuditFilters, offset: int, limit: int
) -> tuple[Sequence[Row], int]:
    """One page of the trail, newest first (ties by id), and how many rows match in all."""
    where, args = _where(filters)  # fixed clauses; every value is a parameter
    return await paginate(
        reader,
        f"SELECT {', '.join(AUDIT_FIELDS)}, $TOTAL AS total FROM audit_log{where}"  # noqa: S608
        " ORDER BY created_at DESC, id DESC",
        args,
        Offset(offset, limit),
        count=f"SELECT count(*) FROM audit_log{where}",  # noqa: S608
    )


AuditAnchor = tuple[Any, Any]  # (created_at, id) of the row a walk continues after


async def audit_after(
    reader: Reader, filters: AuditFilters, anchor: AuditAnchor | None, limit: int
) -> tuple[Sequence[Row], bool]:
    """Up to `limit` rows of the trail after `anchor`, newest first (ties by id), each with
    its `id` last, and whether more follow: a keyset walk (the CSV export)."""
    where, args = _where(filters)  # fixed clauses; every value is a parameter
    page = Keyset(limit, "(created_at, id)", anchor, descending=True)
    return await paginate(
        reader,
        f"SELECT {', '.join(AUDIT_FIELDS)}, id FROM audit_log{where or ' WHERE 1 = 1'}$AFTER"  # noqa: S608
        " ORDER BY created_at DESC, id DESC",
        args,
        page,
        walk=True,
    )
