"""`GET /accounts`: a page of accounts with owner, card count and primary card, one statement.

The record has the shape of `AccountRecord` (the documented schema). The primary card is
the account's first card in its owner's order that is not closed.
"""

from __future__ import annotations

import uuid
from typing import Any

from cardservice.auth.credentials import Principal
from cardservice.cards.listing import card_columns, card_row_record
from cardservice.ledger.money import from_minor
from cardservice.sql import Reader, Row, iso_z, text_uuid
from cardservice.web import Page, escape_like

RELATED_LIMIT = 500
# `total` is given by the caller: a scalar count beside the page (a window count would make
# the database build every account's record, cards and primary card included, before the
# limit).
_SELECT = f"""
SELECT $TOTAL AS total, a.uuid, a.user_uuid, a.name, a.type, a.status, a.currency,
       a.balance, a.created_at, a.updated_at, u.name AS owner_name,
       (SELECT count(*) FROM cards n WHERE n.account_uuid = a.uuid) AS cards_count,
       {card_columns("p", "p_")}  -- last: card_row_record reads them by position
FROM accounts a
JOIN users u ON u.uuid = a.user_uuid
LEFT JOIN cards p ON p.uuid = (
    SELECT c.uuid FROM cards c WHERE c.account_uuid = a.uuid AND c.status <> 'closed'
    ORDER BY c.sort_order, c.created_at, c.uuid LIMIT 1
)
"""  # noqa: S608 - fixed text


def _record(row: Row) -> dict[str, Any]:
    return {
        "uuid": text_uuid(row["uuid"]),
        "name": row["name"],
        "type": row["type"],
        "status": row["status"],
        "currency": row["currency"],
        "balance": from_minor(row["balance"]),
        "cards_count": int(row["cards_count"]),
        "card_info": card_row_record(row) if row["p_uuid"] is not None else None,
        "owner": {"uuid": text_uuid(row["user_uuid"]), "name": row["owner_name"]},
        "created_at": iso_z(row["created_at"]),
        "updated_at": iso_z(row["updated_at"]),
    }


def _where(owners: str, args: list[Any], filters: dict[str, Any]) -> str:
    """`owners` is a fixed clause over `a`; filter values are appended to `args`."""
    clauses = [owners]
    for key in ("status", "type", "currency"):
        if key in filters:
            args.append(filters[key])
            clauses.append(f"a.{key} = ${len(args)}")
    if "search" in filters:
        args.append(f"%{escape_like(filters['search'].lower())}%")
        clauses.append(f"lower(a.name) LIKE ${len(args)} ESCAPE '\\'")
    return " AND ".join(clauses)


async def list_accounts(
    reader: Reader, caller: Principal, filters: dict[str, Any], page: Page
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """The caller's accounts (a page, oldest first) and, for a team owner, the members'."""
    args: list[Any] = [caller.user_uuid]
    where = _where("a.user_uuid = $1", args, filters)
    n = len(args)  # the clauses are fixed text; every value is a parameter
    count = f"SELECT count(*) FROM accounts a WHERE {where}"  # noqa: S608
    select = _SELECT.replace("$TOTAL", f"({count})")
    query = f"{select} WHERE {where} ORDER BY a.created_at, a.uuid LIMIT ${n + 1} OFFSET ${n + 2}"
    rows = await reader.rows(query, *args, page.size, page.offset)
    total = int(rows[0]["total"]) if rows else int(await reader.value(count, *args))
    related: list[dict[str, Any]] = []
    if caller.is_team_owner and caller.team_uuid is not None:
        related = await _team_accounts(reader, caller.team_uuid, caller.user_uuid, filters)
    return [_record(row) for row in rows], related, total


async def _team_accounts(
    reader: Reader, team_uuid: uuid.UUID, owner_uuid: uuid.UUID, filters: dict[str, Any]
) -> list[dict[str, Any]]:
    args: list[Any] = [team_uuid, owner_uuid]
    where = _where(
        "a.user_uuid IN (SELECT m.uuid FROM users m WHERE m.team_uuid = $1 AND m.uuid <> $2)",
        args,
        filters,
    )
    select = _SELECT.replace("$TOTAL", "NULL")  # the members' accounts are not paged
    query = f"{select} WHERE {where} ORDER BY a.created_at, a.uuid LIMIT {RELATED_LIMIT}"
    return [_record(row) for row in await reader.rows(query, *args)]
