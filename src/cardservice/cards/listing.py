"""`GET /card`: one page of the caller's cards in one statement, rows straight to JSON.

The record has the shape of `CardRecord` (the documented schema); building it from the
driver's row instead of an ORM entity and a Pydantic model is what makes a 100-card page
cheap (see docs/performance.md).
"""

from __future__ import annotations

import uuid
from typing import Any

import orjson

from cardservice.cards.numbers import mask
from cardservice.ledger.money import from_minor
from cardservice.sql import Reader, Row, flag, iso_z, text_uuid
from cardservice.web import Page, escape_like

CARD_FIELDS = (
    "uuid", "account_uuid", "bin", "brand", "last4", "expiry_month", "expiry_year", "currency",
    "balance", "status", "is_favorite", "sort_order", "description", "external_id", "holder_name",
    "holder_address", "auto_replenish_amount", "auto_replenish_min_balance", "created_at",
    "updated_at",
)  # fmt: skip
HOLDER_FIELDS = ("line1", "line2", "city", "state", "postal_code", "country")


def card_columns(table: str, prefix: str = "") -> str:
    """The select list card_row_record reads (last in the row), from alias `table`, names
    prefixed."""
    return ", ".join(f"{table}.{name} AS {prefix}{name}" for name in CARD_FIELDS)


def card_row_record(row: Row) -> dict[str, Any]:
    """A row that ends with the columns of `card_columns(…)` → the API's card record.

    The card's columns are taken by position (the last `len(CARD_FIELDS)`), not by name:
    a 100-card page makes 2,000 lookups, and this is the cheaper way to make them.
    """
    (
        card_uuid, account_uuid, bin_, brand, last4, expiry_month, expiry_year, currency,
        balance, status, is_favorite, sort_order, description, external_id, holder_name,
        address, amount, min_balance, created_at, updated_at,
    ) = tuple(row)[-len(CARD_FIELDS) :]  # fmt: skip
    if isinstance(address, str | bytes):
        address = orjson.loads(address)
    return {
        "uuid": text_uuid(card_uuid),
        "account_uuid": text_uuid(account_uuid),
        "bin": bin_,
        "brand": brand,
        "mask": mask(bin_, last4),
        "last4": last4,
        "expiry_month": expiry_month,
        "expiry_year": expiry_year,
        "currency": currency,
        "balance": from_minor(balance),
        "status": status,
        "is_favorite": flag(is_favorite),
        "sort_order": sort_order,
        "description": description,
        "external_id": external_id,
        "holder_name": holder_name,
        "holder_address": {k: address.get(k) for k in HOLDER_FIELDS} if address else None,
        "auto_replenish": {
            "enabled": amount is not None,
            "amount": from_minor(amount) if amount is not None else None,
            "min_balance": from_minor(min_balance) if min_balance is not None else None,
        },
        "created_at": iso_z(created_at),
        "updated_at": iso_z(updated_at),
    }


def _where(user_uuid: uuid.UUID, filters: dict[str, Any]) -> tuple[str, list[Any]]:
    clauses = ["c.user_uuid = $1"]
    args: list[Any] = [user_uuid]
    for key in ("status", "account_uuid", "is_favorite"):
        if key in filters:
            args.append(filters[key])
            clauses.append(f"c.{key} = ${len(args)}")
    if "search" in filters:
        args.append(f"%{escape_like(filters['search'].lower())}%")
        n = len(args)
        clauses.append(
            f"(c.last4 LIKE ${n} ESCAPE '\\' OR lower(c.bin) LIKE ${n} ESCAPE '\\'"
            f" OR lower(coalesce(c.description, '')) LIKE ${n} ESCAPE '\\'"
            f" OR c.bin || '******' || c.last4 LIKE ${n} ESCAPE '\\')"
        )
    return " AND ".join(clauses), args


async def list_cards(
    reader: Reader, user_uuid: uuid.UUID, filters: dict[str, Any], page: Page
) -> tuple[list[dict[str, Any]], int]:
    """The user's cards in their order (sort_order, created_at, uuid) and how many match."""
    where, args = _where(user_uuid, filters)
    n = len(args)  # the clauses are fixed text; every value is a parameter
    # The total is a scalar subquery, computed once (a window count would read every matching
    # card in full before the limit: a 1,000-card user's page read 1,000 rows, not 100).
    count = f"SELECT count(*) FROM cards c WHERE {where}"  # noqa: S608
    query = f"SELECT ({count}) AS total, {card_columns('c')} FROM cards c WHERE {where}"  # noqa: S608
    query += f" ORDER BY c.sort_order, c.created_at, c.uuid LIMIT ${n + 1} OFFSET ${n + 2}"
    rows = await reader.rows(query, *args, page.size, page.offset)
    # past the last page (or none) no row carries the count: ask it alone
    total = int(rows[0]["total"]) if rows else int(await reader.value(count, *args))
    return [card_row_record(row) for row in rows], total
