"""The statements of the transactions' tables (transactions, three_ds_codes, card_spend) and
the reference rows an authorization reads (transaction_tags, fx_rates); the report's reads
(reports.py builds the records). The lock order's statements are in locks.py, the inserts
of new rows in rows.py."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from cardservice.filters import escape_like
from cardservice.pages import Keyset, Offset, paginate
from cardservice.sql import Reader, Row, Tx, as_uuid
from cardservice.transactions.records import NEWEST_FIRST, transaction_columns

TRANSACTION_COLUMNS = transaction_columns("t")
SHORT_OFFSET = 1_000  # rows an index walk skips in well under a millisecond
SHORT_ROWS = 101  # rows a page reads at most (per_page ≤ 100, and one more to look ahead)

# $1 card; $2, $3, $4: the first day of the day, week, month; $5: the earliest day needed.
# `card_spend` is kept by the database from the card's purchases (migration 20261124_22).
SPENT = """
SELECT
  coalesce(sum(CASE WHEN s.spent_on >= $2 THEN s.amount END), 0) AS daily,
  coalesce(sum(CASE WHEN s.spent_on >= $3 THEN s.amount END), 0) AS weekly,
  coalesce(sum(CASE WHEN s.spent_on >= $4 THEN s.amount END), 0) AS monthly,
  coalesce(sum(s.amount), 0) AS lifetime
FROM card_spend s
WHERE s.card_uuid = $1 AND s.spent_on >= $5"""

CODE_COLUMNS = (
    "d.uuid, d.card_uuid, d.merchant_name, d.amount, d.currency, d.created_at, d.expires_at,"
    " d.code_ciphertext, c.bin, c.last4"
)

CODE_CARD = "SELECT bin, last4 FROM cards WHERE uuid = $1 AND user_uuid = $2"

INSERT_CODE = """
INSERT INTO three_ds_codes (uuid, user_uuid, card_uuid, code_ciphertext, merchant_name, amount,
                            currency, created_at, expires_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"""

UNASSIGNED_CODES = f"""
SELECT {CODE_COLUMNS} FROM three_ds_codes d JOIN cards c ON c.uuid = d.card_uuid
WHERE d.user_uuid = $1 AND d.used_at IS NULL AND d.expires_at > $2
ORDER BY d.created_at DESC, d.uuid DESC"""  # noqa: S608 - constant columns

# Parameters: $1 card, $2 now.
UNASSIGNED_CODES_OF_CARD = """
SELECT uuid, code_ciphertext FROM three_ds_codes
WHERE card_uuid = $1 AND used_at IS NULL AND expires_at > $2
FOR UPDATE"""

USE_CODE = "UPDATE three_ds_codes SET used_at = $2, transaction_uuid = $3 WHERE uuid = $1"

SET_STATUS = (
    "UPDATE transactions SET status = $2, refunded_amount = $3, updated_at = $4 WHERE uuid = $1"
)

SET_HOLD = (
    "UPDATE transactions SET status = $2, amount = $3, captured_amount = $4, updated_at = $5,"
    " merchant_amount = $6, merchant_captured_amount = $7, rate = $8 WHERE uuid = $1"
)

CREDITED = (
    "SELECT COALESCE(SUM(amount), 0) FROM transactions"
    " WHERE parent_uuid = $1 AND type = 'dispute_credit'"
)

TAG_EXISTS = "SELECT slug FROM transaction_tags WHERE slug = $1"

RATE = "SELECT rate FROM fx_rates WHERE base = $1 AND quote = $2"

RAISE_HOLD = (
    "UPDATE transactions SET amount = $2, authorized_amount = $3, updated_at = $4,"
    " merchant_amount = $5 WHERE uuid = $1"
)


# Closing a card (transactions/closing.py): its balance under the caller's lock; its status.
CARD_BALANCE = "SELECT balance FROM cards WHERE uuid = $1"
SET_CARD_CLOSED = "UPDATE cards SET status = 'closed', updated_at = $2 WHERE uuid = $1"
CARD_TO_CLOSE = "SELECT uuid, account_uuid, currency, status, card_type FROM cards WHERE uuid = $1"

# Card types (transactions/card_types.py): a single_use card's approved purchase; the binding.
APPROVED_PURCHASE = (
    "SELECT 1 FROM transactions WHERE card_uuid = $1 AND type = 'card_purchase'"
    " AND parent_uuid IS NULL AND status IN ('pending', 'completed', 'refunded') LIMIT 1"
)
LOCK_MERCHANT = "UPDATE cards SET locked_merchant = $2 WHERE uuid = $1 AND locked_merchant IS NULL"

# A partial reversal (transactions/adjustments.py): the hold shrunk to what stays authorized.
SHRINK_HOLD = (
    "UPDATE transactions SET amount = $2, authorized_amount = $3, merchant_amount = $4,"
    " updated_at = $5 WHERE uuid = $1"
)


_SUCCESSOR = "SELECT replaced_by, status FROM cards WHERE uuid = $1"
CARD_CURRENCY = "SELECT currency FROM cards WHERE uuid = $1"


async def payee(tx: Tx, card_uuid: uuid.UUID) -> tuple[uuid.UUID, str]:
    """The card that money released for `card_uuid` goes to (API.md §15): itself, or the
    card that replaced it (and whatever replaced that one in turn); with its status."""
    current = card_uuid
    while True:
        row = await tx.row(_SUCCESSOR, current)
        assert row is not None, "a card is never deleted"
        following = as_uuid(row["replaced_by"])
        if following is None:
            return current, str(row["status"])
        current = following


# A user's program's spending controls (JSON), or none. Parameters: $1 user.
PROGRAM_CONTROLS = """
SELECT p.spending_controls FROM users u JOIN programs p ON p.uuid = u.program_uuid
WHERE u.uuid = $1"""


def _start_of(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


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
    if "search" in filters:
        args.append(f"%{escape_like(filters['search'].lower())}%")
        n = len(args)
        clauses.append(
            f"(lower(coalesce(t.merchant_name, '')) LIKE ${n} ESCAPE '\\'"
            f" OR lower(coalesce(t.description, '')) LIKE ${n} ESCAPE '\\')"
        )
    return " AND ".join(clauses), args


# Unfiltered, the total is the user's count kept by the database (`transaction_counts`).
_KEPT_COUNT = "SELECT c.transactions FROM transaction_counts c WHERE c.user_uuid = $1"


def _count(where: str, args: list[Any]) -> str:
    return _KEPT_COUNT if len(args) == 1 else f"SELECT count(*) FROM transactions t WHERE {where}"  # noqa: S608


async def report_page(
    reader: Reader, user_uuid: uuid.UUID, filters: dict[str, Any], offset: int, limit: int
) -> tuple[Sequence[Row], int]:
    """A page of the user's transactions, newest first (ties by uuid), and how many match.

    Unfiltered, the total is the user's count kept by the database, so page 1 costs the same
    at any history size; filtered, the matching rows are counted.

    The page is found first by its keys alone (a "deferred join"): the rows skipped by the
    offset are walked in the index (user, created_at, uuid) — on PostgreSQL an index-only
    scan — and only the page's own rows are read from the table. Selecting every column
    with the offset instead reads each skipped row from the table: a deep page of a
    1,000,000-transaction history is then 400,000 random heap reads per request.
    """
    where, args = _where(user_uuid, filters)
    statement = (
        f"SELECT {TRANSACTION_COLUMNS}, k.total FROM ("  # noqa: S608
        f"SELECT t.uuid, t.created_at, $TOTAL AS total FROM transactions t"
        f" WHERE {where} {NEWEST_FIRST} $PAGE"
        f") k JOIN transactions t ON t.uuid = k.uuid ORDER BY k.created_at DESC, k.uuid DESC"
    )
    # Page 1 of the whole history reads its 20 rows by index; a deep offset walks the index,
    # and a filter counts every matching row: those may take long, and leave the loop.
    filtered = len(args) > 1
    return await paginate(
        reader,
        statement,
        args,
        Offset(offset, limit),
        count=_count(where, args),
        total="count(*) OVER ()" if filtered else "",
        walk=filtered or offset >= SHORT_OFFSET,
    )


async def report_count(reader: Reader, user_uuid: uuid.UUID, filters: dict[str, Any]) -> int:
    """How many of the user's transactions match (the kept count when unfiltered)."""
    where, args = _where(user_uuid, filters)
    if len(args) == 1:
        return int(await reader.value(_KEPT_COUNT, *args) or 0)
    return int((await reader.scan(_count(where, args), *args))[0][0])


Anchor = tuple[Any, Any]  # (created_at, uuid) of the row a keyset page starts after


async def report_after(
    reader: Reader,
    user_uuid: uuid.UUID,
    filters: dict[str, Any],
    anchor: Anchor | None,
    limit: int,
) -> tuple[Sequence[Row], bool]:
    """Up to `limit` matching rows after `anchor` in the report's order, and whether more
    follow: an index range scan from the anchor, whatever its depth (short unless filtered
    or many rows are asked)."""
    where, args = _where(user_uuid, filters)
    short = len(args) == 1 and limit < SHORT_ROWS
    statement = (
        f"SELECT {TRANSACTION_COLUMNS} FROM transactions t"  # noqa: S608
        f" WHERE {where}$AFTER {NEWEST_FIRST}"
    )
    page = Keyset(limit, "(t.created_at, t.uuid)", anchor, descending=True)
    return await paginate(reader, statement, args, page, walk=not short)


_ANCHOR = "SELECT created_at, uuid FROM transactions WHERE uuid = $1 AND user_uuid = $2"


async def anchor_of(
    reader: Reader, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID
) -> Anchor | None:
    """The report's order key of one of the user's transactions, or None."""
    row = await reader.row(_ANCHOR, transaction_uuid, user_uuid)
    return None if row is None else (row[0], row[1])


_OWN_TRANSACTION = (
    f"SELECT {TRANSACTION_COLUMNS} FROM transactions t WHERE t.uuid = $1 AND t.user_uuid = $2"  # noqa: S608
)


async def own_transaction(
    reader: Reader, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID
) -> Row | None:
    """One of the user's transactions, or None."""
    return await reader.row(_OWN_TRANSACTION, transaction_uuid, user_uuid)


_RECEIPT = """
SELECT t.uuid, t.type, t.status, t.merchant_name, t.amount, t.fee, t.currency, t.direction,
       t.created_at, t.error_slug, c.bin, c.last4
FROM transactions t LEFT JOIN cards c ON c.uuid = t.card_uuid
WHERE t.uuid = $1 AND t.user_uuid = $2
"""


async def receipt_row(
    reader: Reader, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID
) -> Row | None:
    """What the receipt of one of the user's transactions shows, with its card's bin and last4."""
    return await reader.row(_RECEIPT, transaction_uuid, user_uuid)


_LATEST_SETTLED = """
SELECT uuid FROM transactions WHERE user_uuid = $1 AND type = 'card_purchase'
AND status = 'completed' ORDER BY captured_at DESC, uuid LIMIT $2"""


async def latest_settled_purchases(tx: Tx, user_uuid: uuid.UUID, count: int) -> list[uuid.UUID]:
    """The user's `count` purchases captured last (ties by uuid)."""
    rows = await tx.rows(_LATEST_SETTLED, user_uuid, count)
    return [found for row in rows if (found := as_uuid(row["uuid"])) is not None]
