"""Reading transactions: one by uuid, and the paginated report."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.cards.numbers import mask
from cardservice.ledger.money import from_minor
from cardservice.models import Card, Transaction
from cardservice.sql import Reader, Row, flag, iso_z, text_uuid
from cardservice.transactions.lifecycle import TransactionNotFound
from cardservice.transactions.receipt import ReceiptView


def _start_of(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


TRANSACTION_COLUMNS = """
t.uuid, t.type, t.status, t.amount, t.currency, t.direction, t.card_uuid, t.account_uuid,
t.merchant_name, t.merchant_mcc, t.merchant_country, t.merchant_city, t.tag_slug,
t.error_slug, t.fee, t.refunded_amount, t.flagged, t.description, t.parent_uuid,
t.created_at, t.updated_at"""
NEWEST_FIRST = "ORDER BY t.created_at DESC, t.uuid DESC"


def transaction_row_record(row: Row) -> dict[str, Any]:
    """A row of TRANSACTION_COLUMNS → the API's transaction record (`TransactionRecord`)."""
    (
        uuid_, type_, status, amount, currency, direction, card_uuid, account_uuid,
        merchant_name, mcc, country, city, tag, error, fee, refunded, flagged, description,
        parent_uuid, created_at, updated_at,
    ) = (row[i] for i in range(21))  # fmt: skip
    merchant = None
    if merchant_name is not None:
        merchant = {"name": merchant_name, "mcc": mcc, "country": country, "city": city}
    return {
        "uuid": text_uuid(uuid_),
        "type": type_,
        "status": status,
        "amount": from_minor(amount),
        "currency": currency,
        "direction": direction,
        "card_uuid": text_uuid(card_uuid),
        "account_uuid": text_uuid(account_uuid),
        "merchant": merchant,
        "tag": tag,
        "error": error,
        "fee": from_minor(fee),
        "refunded_amount": from_minor(refunded),
        "flagged": flag(flagged),
        "description": description,
        "parent_uuid": text_uuid(parent_uuid),
        "created_at": iso_z(created_at),
        "updated_at": iso_z(updated_at),
    }


def _where(user_uuid: uuid.UUID, filters: dict[str, Any]) -> tuple[str, list[Any]]:
    clauses = ["t.user_uuid = $1"]
    args: list[Any] = [user_uuid]
    for key in ("card_uuid", "account_uuid", "status", "type"):
        if key in filters:
            args.append(filters[key])
            clauses.append(f"t.{key} = ${len(args)}")
    if "date_from" in filters:
        args.append(_start_of(filters["date_from"]))
        clauses.append(f"t.created_at >= ${len(args)}")
    if "date_to" in filters:
        args.append(_start_of(filters["date_to"] + timedelta(days=1)))
        clauses.append(f"t.created_at < ${len(args)}")
    return " AND ".join(clauses), args


async def report(
    reader: Reader, user_uuid: uuid.UUID, filters: dict[str, Any], offset: int, limit: int
) -> tuple[list[dict[str, Any]], int]:
    """The user's transactions, newest first (ties by uuid), and how many match.

    Unfiltered, the total is the user's count kept by the database (`transaction_counts`), so
    page 1 costs the same at any history size; filtered, the matching rows are counted.

    The page is found first by its keys alone (a "deferred join"): the rows skipped by the
    offset are walked in the index (user, created_at, uuid) — on PostgreSQL an index-only
    scan — and only the page's own rows are read from the table. Selecting every column
    with the offset instead reads each skipped row from the table: a deep page of a
    1,000,000-transaction history is then 400,000 random heap reads per request.
    """
    where, args = _where(user_uuid, filters)
    n = len(args)  # the clauses are fixed text; every value is a parameter
    if n == 1:
        total_column = "(SELECT c.transactions FROM transaction_counts c WHERE c.user_uuid = $1)"
    else:
        total_column = "count(*) OVER ()"
    query = (
        f"SELECT {TRANSACTION_COLUMNS}, k.total FROM ("  # noqa: S608
        f"SELECT t.uuid, t.created_at, {total_column} AS total FROM transactions t"
        f" WHERE {where} {NEWEST_FIRST} LIMIT ${n + 1} OFFSET ${n + 2}"
        f") k JOIN transactions t ON t.uuid = k.uuid ORDER BY k.created_at DESC, k.uuid DESC"
    )
    rows = await reader.rows(query, *args, limit, offset)
    if rows:
        total = int(rows[0]["total"])
    elif n == 1:
        count = "SELECT transactions FROM transaction_counts WHERE user_uuid = $1"
        total = int(await reader.value(count, user_uuid) or 0)
    else:
        count = f"SELECT count(*) FROM transactions t WHERE {where}"  # noqa: S608
        total = int(await reader.value(count, *args))
    return [transaction_row_record(row) for row in rows], total


async def one_transaction(
    reader: Reader, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID
) -> dict[str, Any]:
    """One of the user's transactions as its record; anybody else's is 404."""
    row = await reader.row(
        f"SELECT {TRANSACTION_COLUMNS} FROM transactions t WHERE t.uuid = $1 AND t.user_uuid = $2",  # noqa: S608
        transaction_uuid,
        user_uuid,
    )
    if row is None:
        raise TransactionNotFound()
    return transaction_row_record(row)


async def own_transaction(
    session: AsyncSession, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID
) -> tuple[Transaction, Card | None]:
    """One of the user's transactions (and its card); anybody else's is 404."""
    row = await session.execute(
        select(Transaction, Card)
        .outerjoin(Card, Card.uuid == Transaction.card_uuid)
        .where(Transaction.uuid == transaction_uuid, Transaction.user_uuid == user_uuid)
    )
    found = row.first()
    if found is None:
        raise TransactionNotFound()
    return found[0], found[1]


async def receipt_view(
    session: AsyncSession, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID
) -> ReceiptView:
    """What the receipt of one of the user's transactions shows (card mask, never the number)."""
    row, card = await own_transaction(session, user_uuid, transaction_uuid)
    return ReceiptView(
        transaction_uuid=str(row.uuid),
        type=row.type,
        status=row.status,
        merchant_name=row.merchant_name,
        amount=str(from_minor(row.amount)),
        fee=str(from_minor(row.fee)),
        currency=row.currency,
        direction=row.direction,
        card_mask=mask(card.bin, card.last4) if card else None,
        created_at=row.created_at,
        error=row.error_slug,
    )
