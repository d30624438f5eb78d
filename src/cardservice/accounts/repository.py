"""Queries for accounts: one select list serves every read of an account record.

The primary card is the account's first card in its owner's order that is not closed.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from cardservice.auth import readable_by
from cardservice.cards import card_columns, card_order
from cardservice.db.paging import Offset, paginate
from cardservice.db.sql import Reader, Row, Tx, as_uuid, escape_like

RELATED_LIMIT = 500
# `$TOTAL` is a scalar count beside a page (`paging.paginate`: a window count would make the
# database build every account's record, cards and primary card included, before the limit),
# or NULL.
ACCOUNT_SELECT = f"""
SELECT $TOTAL AS total, a.uuid, a.user_uuid, a.name, a.type, a.status, a.currency,
       a.balance, a.created_at, a.updated_at, u.name AS owner_name,
       (SELECT count(*) FROM cards n WHERE n.account_uuid = a.uuid) AS cards_count,
       {card_columns("p", "p_")}  -- last: card_record reads them by position
FROM accounts a
JOIN users u ON u.uuid = a.user_uuid
LEFT JOIN cards p ON p.uuid = (
    SELECT c.uuid FROM cards c WHERE c.account_uuid = a.uuid AND c.status <> 'closed'
    ORDER BY {card_order("c")} LIMIT 1
)
"""  # noqa: S608 - fixed text
OLDEST_FIRST = "ORDER BY a.created_at, a.uuid"


def where(owners: str, args: list[Any], filters: dict[str, Any]) -> str:
    """`owners` is a fixed clause over `a`; filter values are appended to `args`."""
    clauses = [owners]
    for key in ("user_uuid", "status", "type", "currency"):
        if key in filters:
            args.append(filters[key])
            clauses.append(f"a.{key} = ${len(args)}")
    if "search" in filters:
        args.append(f"%{escape_like(filters['search'].lower())}%")
        clauses.append(f"lower(a.name) LIKE ${len(args)} ESCAPE '\\'")
    return " AND ".join(clauses)


async def page_of_accounts(
    reader: Reader, user_uuid: uuid.UUID | None, filters: dict[str, Any], offset: int, limit: int
) -> tuple[Sequence[Row], int]:
    """A page of the user's own accounts, or of every user's (`None`: the operator's
    read-back), oldest first, and how many match."""
    args: list[Any] = [] if user_uuid is None else [user_uuid]
    owner = "1 = 1" if user_uuid is None else "a.user_uuid = $1"
    clause = where(owner, args, filters)  # fixed text; every value a parameter
    return await paginate(
        reader,
        f"{ACCOUNT_SELECT} WHERE {clause} {OLDEST_FIRST}",
        args,
        Offset(offset, limit),
        count=f"SELECT count(*) FROM accounts a WHERE {clause}",  # noqa: S608
        walk=user_uuid is None,
    )


async def team_accounts(
    reader: Reader, team_uuid: uuid.UUID, owner_uuid: uuid.UUID, filters: dict[str, Any]
) -> Sequence[Row]:
    """The other team members' accounts (unpaged, at most `RELATED_LIMIT`)."""
    args: list[Any] = [team_uuid, owner_uuid]
    clause = where(
        "a.user_uuid IN (SELECT m.uuid FROM users m WHERE m.team_uuid = $1 AND m.uuid <> $2)",
        args,
        filters,
    )
    select = ACCOUNT_SELECT.replace("$TOTAL", "NULL")
    return await reader.rows(f"{select} WHERE {clause} {OLDEST_FIRST} LIMIT {RELATED_LIMIT}", *args)


async def visible_account(
    reader: Reader, account_uuid: uuid.UUID, caller: uuid.UUID, owned_team: uuid.UUID | None
) -> Row | None:
    """One account the caller may see (their own, a member's for the team's owner), or None."""
    select = ACCOUNT_SELECT.replace("$TOTAL", "NULL")
    visible, args = readable_by("a.user_uuid", 2, caller, owned_team)
    return await reader.row(f"{select} WHERE a.uuid = $1 AND {visible}", account_uuid, *args)


async def any_account(reader: Reader | Tx, account_uuid: uuid.UUID) -> Row | None:
    """Any user's account as `account_record` reads it (the operator sees every one)."""
    select = ACCOUNT_SELECT.replace("$TOTAL", "NULL")
    return await reader.row(f"{select} WHERE a.uuid = $1", account_uuid)


async def account_type_exists(tx: Tx, slug: str) -> bool:
    found = await tx.value(
        "SELECT slug FROM dictionary_entries WHERE kind = 'account_type' AND slug = $1", slug
    )
    return found is not None


_INSERT = """
INSERT INTO accounts (uuid, user_uuid, name, type, status, currency, balance, created_at,
                      updated_at)
VALUES ($1, $2, $3, $4, 'active', $5, 0, $6, $6)"""
_SET_STATUS = "UPDATE accounts SET status = $2, updated_at = $3 WHERE uuid = $1 RETURNING status"


async def insert_account(
    tx: Tx,
    account_uuid: uuid.UUID,
    user_uuid: uuid.UUID,
    name: str,
    type_: str,
    currency: str,
    now: datetime,
) -> None:
    """A new active account with a zero balance."""
    await tx.execute(_INSERT, account_uuid, user_uuid, name, type_, currency, now)


async def set_status(tx: Tx, account_uuid: uuid.UUID, status: str, now: datetime) -> str | None:
    """The account's new status; None when there is no such account."""
    changed = await tx.value(_SET_STATUS, account_uuid, status, now)
    return None if changed is None else str(changed)


_ACCOUNT_IN = "SELECT uuid FROM accounts WHERE user_uuid = $1 AND currency = $2"


async def account_in(source: Reader | Tx, user_uuid: uuid.UUID, currency: str) -> uuid.UUID | None:
    """An account of the user's in `currency`, or None."""
    return as_uuid(await source.value(_ACCOUNT_IN, user_uuid, currency))
