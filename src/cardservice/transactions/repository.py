"""The statements of the transactions' tables (transactions, three_ds_codes, card_spend) and
the reference rows an authorization reads (transaction_tags; its rate: dictionaries); the
report's reads (reports.py builds the records), and `transaction_row`, the one insert of a
new row. The lock order's statements are in locks.py."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from cardservice.db.paging import Keyset, Offset, paginate
from cardservice.db.sql import (
    Insert,
    Reader,
    Row,
    Tx,
    as_uuid,
    escape_like,
    in_list,
    write_insert,
)
from cardservice.dictionaries import rate_in_force
from cardservice.encoding import dumps, minor_json
from cardservice.models import Event, Transaction
from cardservice.models.base import pg_array_types, table_of
from cardservice.models.event import WRITTEN_EVENT_COLUMNS, written_event
from cardservice.transactions.records import (
    NEWEST_FIRST,
    TRANSACTION_FIELDS,
    Purchase,
    transaction_columns,
    transaction_record_of,
)

TRANSACTION_COLUMNS = transaction_columns("t")
SHORT_OFFSET = 1_000  # rows an index walk skips in well under a millisecond
SHORT_ROWS = 101  # rows a page reads at most (per_page ≤ 100, and one more to look ahead)

# $1 card; $2, $3, $4: the first day of the day, week, month; $5: the earliest day needed.
# `card_spend` is kept by the database from the card's purchases (migration 20261124_22).
_SPENT = """
SELECT
  coalesce(sum(CASE WHEN s.spent_on >= $2 THEN s.amount END), 0) AS daily,
  coalesce(sum(CASE WHEN s.spent_on >= $3 THEN s.amount END), 0) AS weekly,
  coalesce(sum(CASE WHEN s.spent_on >= $4 THEN s.amount END), 0) AS monthly,
  coalesce(sum(s.amount), 0) AS lifetime
FROM card_spend s
WHERE s.card_uuid = $1 AND s.spent_on >= $5"""

# $1 card, $2 the UTC day's first moment: the card's ATM withdrawals that day (approved, less
# what went back: a reversed one counts nothing), for `atm_per_day`
_ATM_WITHDRAWN = """
SELECT coalesce(sum(amount - coalesce(refunded_amount, 0)), 0) FROM transactions
WHERE card_uuid = $1 AND type = 'atm_withdrawal' AND created_at >= $2
  AND status IN ('pending', 'completed', 'refunded')"""

# $1 user, $2 currency, $3 the first day of the month ($4: its first moment, UTC): the user's
# cards' spend in it, purchases (`card_spend`) and ATM withdrawals (as `_ATM_WITHDRAWN`).
_MEMBER_SPENT = """
SELECT (SELECT coalesce(sum(s.amount), 0) FROM card_spend s JOIN cards c ON c.uuid = s.card_uuid
        WHERE c.user_uuid = $1 AND c.currency = $2 AND s.spent_on >= $3)
     + (SELECT coalesce(sum(t.amount - t.refunded_amount), 0)
        FROM transactions t JOIN cards c ON c.uuid = t.card_uuid
        WHERE t.user_uuid = $1 AND t.type = 'atm_withdrawal' AND t.created_at >= $4
          AND t.status IN ('pending', 'completed', 'refunded') AND c.currency = $2)"""

_CODE_COLUMNS = (
    "d.uuid, d.card_uuid, d.merchant_name, d.amount, d.currency, d.created_at, d.expires_at,"
    " d.code_ciphertext, c.bin, c.last4"
)

_CODE_CARD = "SELECT bin, last4 FROM cards WHERE uuid = $1 AND user_uuid = $2"

_INSERT_CODE = """
INSERT INTO three_ds_codes (uuid, user_uuid, card_uuid, code_ciphertext, merchant_name, amount,
                            currency, created_at, expires_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"""

_UNASSIGNED_CODES = f"""
SELECT {_CODE_COLUMNS} FROM three_ds_codes d JOIN cards c ON c.uuid = d.card_uuid
WHERE d.user_uuid = $1 AND d.used_at IS NULL AND d.expires_at > $2
ORDER BY d.created_at DESC, d.uuid DESC"""  # noqa: S608 - constant columns

# Parameters: $1 card, $2 now.
_UNASSIGNED_CODES_OF_CARD = """
SELECT uuid, code_ciphertext FROM three_ds_codes
WHERE card_uuid = $1 AND used_at IS NULL AND expires_at > $2
FOR UPDATE"""

_USE_CODE = "UPDATE three_ds_codes SET used_at = $2, transaction_uuid = $3 WHERE uuid = $1"

_SET_STATUS = (
    "UPDATE transactions SET status = $2, refunded_amount = $3, updated_at = $4 WHERE uuid = $1"
)

# A purchase's hold columns and shortfall as its record says (a post, a void, a presented
# difference); a set of posts (holds.write_posts) one statement on PostgreSQL (`unnest`: the
# same text whatever the count).
_SET_HOLDS = (
    "UPDATE transactions SET status = $2, amount = $3, captured_amount = $4, updated_at = $5,"
    " merchant_amount = $6, merchant_captured_amount = $7, rate = $8, shortfall = $9"
    " WHERE uuid = $1"
)
_SET_HOLDS_PG = (
    "UPDATE transactions t SET status = v.status, amount = v.amount,"
    " captured_amount = v.captured_amount, updated_at = v.updated_at,"
    " merchant_amount = v.merchant_amount, merchant_captured_amount = v.merchant_captured,"
    " rate = v.rate, shortfall = v.shortfall"
    " FROM unnest(CAST($1 AS uuid[]), CAST($2 AS text[]), CAST($3 AS bigint[]),"
    " CAST($4 AS bigint[]), CAST($5 AS timestamptz[]), CAST($6 AS bigint[]),"
    " CAST($7 AS bigint[]), CAST($8 AS text[]), CAST($9 AS bigint[]))"
    " AS v(uuid, status, amount, captured_amount, updated_at, merchant_amount,"
    " merchant_captured, rate, shortfall) WHERE t.uuid = v.uuid"
)

# A set of held purchases locked together (a clearing unit's presented captures,
# holds.lock_held), in the lock order (docs/ledger.md, "Lock order"): their accounts, then
# their cards, then their rows, each in uuid order, one statement each ({}: the set, an array
# on PostgreSQL, a list of values on SQLite).
_HELD_ACCOUNTS = (
    "SELECT a.uuid FROM transactions t JOIN accounts a ON a.uuid = t.account_uuid"
    " WHERE t.uuid {} ORDER BY a.uuid FOR NO KEY UPDATE OF a"
)
_HELD_CARDS = (
    "SELECT c.uuid, c.status, c.currency, c.replaced_by, c.card_type FROM cards c"
    " WHERE c.uuid IN (SELECT t.card_uuid FROM transactions t WHERE t.uuid {})"
    " ORDER BY c.uuid FOR NO KEY UPDATE OF c"
)
HELD_FIELDS = (*TRANSACTION_FIELDS, "user_uuid", "captured_at")
_HELD_ROWS = (
    f"SELECT {transaction_columns('t')}, t.user_uuid, t.captured_at"  # noqa: S608 - ours
    " FROM transactions t WHERE t.uuid {} ORDER BY t.uuid FOR NO KEY UPDATE"
)

_CREDITED = (
    "SELECT COALESCE(SUM(CASE type WHEN 'dispute_provisional_reversal' THEN -amount"
    " ELSE amount END), 0) FROM transactions WHERE parent_uuid = $1 AND type IN"
    " ('dispute_credit', 'dispute_provisional_credit', 'dispute_provisional_reversal')"
)

_TAG_EXISTS = "SELECT slug FROM transaction_tags WHERE slug = $1"

_RAISE_HOLD = (
    "UPDATE transactions SET amount = $2, authorized_amount = $3, updated_at = $4,"
    " merchant_amount = $5 WHERE uuid = $1"
)


# Closing a card (transactions/closing.py): its balance under the caller's lock; its status.
_CARD_BALANCE = "SELECT balance FROM cards WHERE uuid = $1"
_SET_CARD_CLOSED = "UPDATE cards SET status = 'closed', updated_at = $2 WHERE uuid = $1"
_CARD_TO_CLOSE = "SELECT uuid, account_uuid, currency, status, card_type FROM cards WHERE uuid = $1"

# Card types (transactions/card_types.py): a single_use card's approved purchase; the binding.
_APPROVED_PURCHASE = (
    "SELECT 1 FROM transactions WHERE card_uuid = $1 AND type = 'card_purchase'"
    " AND parent_uuid IS NULL AND status IN ('pending', 'completed', 'refunded') LIMIT 1"
)
_LOCK_MERCHANT = "UPDATE cards SET locked_merchant = $2 WHERE uuid = $1 AND locked_merchant IS NULL"

# A partial reversal (transactions/adjustments.py): the hold shrunk to what stays authorized.
_SHRINK_HOLD = (
    "UPDATE transactions SET amount = $2, authorized_amount = $3, merchant_amount = $4,"
    " updated_at = $5 WHERE uuid = $1"
)


_SET_SHORTFALL = "UPDATE transactions SET shortfall = $2 WHERE uuid = $1"
_ACCOUNT_BALANCE = "SELECT balance FROM accounts WHERE uuid = $1"

_SUCCESSOR = "SELECT replaced_by, status FROM cards WHERE uuid = $1"
_CARD_CURRENCY = "SELECT currency FROM cards WHERE uuid = $1"


async def payee(tx: Tx, card_uuid: uuid.UUID) -> tuple[uuid.UUID, str]:
    """The card that money released for `card_uuid` goes to (docs/operations.md#running-a-program):
    itself, or the card that replaced it (and whatever replaced that one in turn); with its
    status."""
    current = card_uuid
    while True:
        row = await tx.row(_SUCCESSOR, current)
        assert row is not None, "a card is never deleted"
        following = as_uuid(row["replaced_by"])
        if following is None:
            return current, str(row["status"])
        current = following


# A user's program's spending controls (JSON), or none. Parameters: $1 user.
async def spent(
    tx: Tx, card_uuid: uuid.UUID, day: date, week: date, month: date, earliest: date
) -> Row | None:
    """The card's spend since the start of the day, the week and the month, and in all
    (from `earliest` on), in one statement."""
    return await tx.row(_SPENT, card_uuid, day, week, month, earliest)


async def atm_withdrawn(tx: Tx, card_uuid: uuid.UUID, since: datetime) -> int:
    """What the card's ATM withdrawals took from `since` on (the caller holds its lock)."""
    return int(await tx.value(_ATM_WITHDRAWN, card_uuid, since) or 0)


_SET_RECEIPT = (
    "UPDATE transactions SET receipt_attachment_uuid = $2, updated_at = $3 WHERE uuid = $1"
)


async def set_receipt(
    tx: Tx, transaction_uuid: uuid.UUID, attachment_uuid: uuid.UUID | None, now: datetime
) -> None:
    """Link (or, with None, unlink) the transaction's receipt; the caller holds its lock."""
    await tx.execute(_SET_RECEIPT, transaction_uuid, attachment_uuid, now)


async def member_spent(tx: Tx, user_uuid: uuid.UUID, currency: str, since: date) -> int:
    """What the user's cards in `currency` spent from the UTC day `since` on (`card_spend`:
    approved purchases less what was released or refunded; and their ATM withdrawals, the
    same way), in minor units."""
    start = datetime.combine(since, time(), UTC)
    return int(await tx.value(_MEMBER_SPENT, user_uuid, currency, since, start))


async def code_card(tx: Tx, card_uuid: uuid.UUID, user_uuid: uuid.UUID) -> Row | None:
    """The user's card's `bin` and `last4`, or None when it is not theirs."""
    return await tx.row(_CODE_CARD, card_uuid, user_uuid)


async def insert_code(
    tx: Tx,
    code_uuid: uuid.UUID,
    user_uuid: uuid.UUID,
    card_uuid: uuid.UUID,
    code_ciphertext: bytes,
    merchant_name: str,
    amount: int,
    currency: str,
    created_at: datetime,
    expires_at: datetime,
) -> None:
    """Insert a 3DS code (encrypted by the caller)."""
    await tx.execute(
        _INSERT_CODE,
        code_uuid,
        user_uuid,
        card_uuid,
        code_ciphertext,
        merchant_name,
        amount,
        currency,
        created_at,
        expires_at,
    )


async def unassigned_codes(reader: Reader, user_uuid: uuid.UUID, now: datetime) -> Sequence[Row]:
    """The user's codes not used and not expired at `now`, with their cards' `bin` and
    `last4`, newest first."""
    return await reader.rows(_UNASSIGNED_CODES, user_uuid, now)


async def unassigned_codes_of_card(tx: Tx, card_uuid: uuid.UUID, now: datetime) -> Sequence[Row]:
    """The card's codes not used and not expired at `now` (`uuid`, `code_ciphertext`),
    locked."""
    return await tx.rows(_UNASSIGNED_CODES_OF_CARD, card_uuid, now)


async def use_code(
    tx: Tx, code_uuid: uuid.UUID, now: datetime, transaction_uuid: uuid.UUID | None
) -> None:
    """The code is used at `now` by the transaction (None: by a token's activation)."""
    await tx.execute(_USE_CODE, code_uuid, now, transaction_uuid)


async def set_status(
    tx: Tx, transaction_uuid: uuid.UUID, status: str, refunded_amount: int, now: datetime
) -> None:
    """A transaction's status and refunded amount."""
    await tx.execute(_SET_STATUS, transaction_uuid, status, refunded_amount, now)


async def lock_held(tx: Tx, purchases: Sequence[uuid.UUID]) -> tuple[Sequence[Row], Sequence[Row]]:
    """Lock the purchases' accounts, then their cards, then their rows (any status), one
    statement each; the cards (uuid, status, currency, replaced_by, card_type) and the rows
    (`HELD_FIELDS`)."""
    if not purchases:
        return [], []
    where, args = f"IN {in_list(len(purchases))}", list[Any](purchases)
    if tx.dialect == "postgresql":
        where, args = "= ANY(CAST($1 AS uuid[]))", [list(purchases)]
    await tx.rows(_HELD_ACCOUNTS.format(where), *args)
    cards = await tx.rows(_HELD_CARDS.format(where), *args)
    return cards, await tx.rows(_HELD_ROWS.format(where), *args)


async def set_holds(tx: Tx, purchases: Sequence[Purchase]) -> None:
    """Each purchase's status, held and captured amounts (and the merchant's), rate and
    shortfall, as the records say (one statement: a purchase alone by its own text, a set's
    by `unnest` on PostgreSQL)."""
    rows = [
        (p.uuid, p.status, p.amount, p.captured_amount, p.updated_at, p.merchant_amount,
         p.merchant_captured_amount, p.rate, p.shortfall)
        for p in purchases
    ]  # fmt: skip
    if tx.dialect != "postgresql" or len(rows) == 1:
        for row in rows:
            await tx.execute(_SET_HOLDS, *row)
        return
    await tx.execute(_SET_HOLDS_PG, *(list(column) for column in zip(*rows, strict=True)))


async def credited(tx: Tx, purchase_uuid: uuid.UUID) -> int:
    """What the purchase's disputes credited back and kept: its `dispute_credit` and
    provisional credits less their reversals (0 when none)."""
    return int(await tx.value(_CREDITED, purchase_uuid))


async def tag_exists(tx: Tx, slug: str) -> bool:
    """The transaction tag exists."""
    return await tx.value(_TAG_EXISTS, slug) is not None


async def rate(tx: Tx, base: str, quote: str, at: datetime) -> Any:
    """The rate from `base` to `quote` in force at `at` as stored (the operator's, else the
    catalogue's: docs/operations.md#your-own-catalogue), or None when there is no such pair."""
    return await rate_in_force(tx, base, quote, at)


async def raise_hold(
    tx: Tx,
    transaction_uuid: uuid.UUID,
    amount: int,
    authorized_amount: int,
    now: datetime,
    merchant_amount: int | None,
) -> None:
    """A purchase's hold and authorization after an increment."""
    await tx.execute(_RAISE_HOLD, transaction_uuid, amount, authorized_amount, now, merchant_amount)


async def card_balance(tx: Tx, card_uuid: uuid.UUID) -> int:
    """The card's balance (under the caller's lock)."""
    return int(await tx.value(_CARD_BALANCE, card_uuid))


async def account_balance(tx: Tx, account_uuid: uuid.UUID) -> int:
    """The account's balance (under the caller's lock)."""
    return int(await tx.value(_ACCOUNT_BALANCE, account_uuid))


async def set_shortfall(tx: Tx, transaction_uuid: uuid.UUID, shortfall: int) -> None:
    """What the purchase's cardholder owes `cardholder_receivables` for it."""
    await tx.execute(_SET_SHORTFALL, transaction_uuid, shortfall)


async def set_card_closed(tx: Tx, card_uuid: uuid.UUID, now: datetime) -> None:
    """The card's status is `closed`."""
    await tx.execute(_SET_CARD_CLOSED, card_uuid, now)


async def card_to_close(tx: Tx, card_uuid: Any) -> Row | None:
    """The card's uuid, account, currency, status and type."""
    return await tx.row(_CARD_TO_CLOSE, card_uuid)


async def has_approved_purchase(tx: Tx, card_uuid: uuid.UUID | None) -> bool:
    """The card has a purchase (not an increment) that was approved."""
    return await tx.value(_APPROVED_PURCHASE, card_uuid) is not None


async def lock_merchant(tx: Tx, card_uuid: uuid.UUID | None, merchant: str) -> None:
    """Bind a merchant_locked card to its merchant, unless it is bound already."""
    await tx.execute(_LOCK_MERCHANT, card_uuid, merchant)


async def shrink_hold(
    tx: Tx,
    transaction_uuid: Any,
    amount: int,
    authorized_amount: int,
    merchant_amount: int | None,
    now: datetime,
) -> None:
    """A purchase's hold after a partial reversal."""
    await tx.execute(
        _SHRINK_HOLD, transaction_uuid, amount, authorized_amount, merchant_amount, now
    )


async def card_currency(tx: Tx, card_uuid: Any) -> Any:
    """The card's currency."""
    return await tx.value(_CARD_CURRENCY, card_uuid)


def _start_of(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def _where(user_uuid: uuid.UUID | None, filters: dict[str, Any]) -> tuple[str, list[Any], bool]:
    """The report's WHERE over `t` for one user's transactions, or for every user's (None,
    the operator's: `filters[user_uuid]` may name one); its args; and whether it is the
    user's whole history (the count the database keeps answers it)."""
    clauses = [] if user_uuid is None else ["t.user_uuid = $1"]
    args: list[Any] = [] if user_uuid is None else [user_uuid]
    for key in ("user_uuid", "card_uuid", "account_uuid", "status", "type"):
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
    whole = user_uuid is not None and len(args) == 1
    return " AND ".join(clauses) or "1 = 1", args, whole


# Unfiltered, the total is the user's count kept by the database (`transaction_counts`).
_KEPT_COUNT = "SELECT c.transactions FROM transaction_counts c WHERE c.user_uuid = $1"


def _count(where: str, whole: bool) -> str:
    return _KEPT_COUNT if whole else f"SELECT count(*) FROM transactions t WHERE {where}"  # noqa: S608


async def report_page(
    reader: Reader, user_uuid: uuid.UUID | None, filters: dict[str, Any], offset: int, limit: int
) -> tuple[Sequence[Row], int]:
    """A page of the user's transactions (every user's when None), newest first (ties by
    uuid), and how many match.

    Unfiltered, the total is the user's count kept by the database, so page 1 costs the same
    at any history size; filtered, the matching rows are counted.

    The page is found first by its keys alone (a "deferred join"): the rows skipped by the
    offset are walked in the index (user, created_at, uuid) — on PostgreSQL an index-only
    scan — and only the page's own rows are read from the table. Selecting every column
    with the offset instead reads each skipped row from the table: a deep page of a
    1,000,000-transaction history is then 400,000 random heap reads per request.
    """
    where, args, whole = _where(user_uuid, filters)
    statement = (
        f"SELECT {TRANSACTION_COLUMNS}, k.total FROM ("  # noqa: S608
        f"SELECT t.uuid, t.created_at, $TOTAL AS total FROM transactions t"
        f" WHERE {where} {NEWEST_FIRST} $PAGE"
        f") k JOIN transactions t ON t.uuid = k.uuid ORDER BY k.created_at DESC, k.uuid DESC"
    )
    # Page 1 of the whole history reads its 20 rows by index; a deep offset walks the index,
    # and a filter counts every matching row: those may take long, and leave the loop.
    return await paginate(
        reader,
        statement,
        args,
        Offset(offset, limit),
        count=_count(where, whole),
        total="" if whole else "count(*) OVER ()",
        walk=not whole or offset >= SHORT_OFFSET,
    )


async def report_count(reader: Reader, user_uuid: uuid.UUID | None, filters: dict[str, Any]) -> int:
    """How many of the user's transactions match (the kept count when unfiltered)."""
    where, args, whole = _where(user_uuid, filters)
    if whole:
        return int(await reader.value(_KEPT_COUNT, *args) or 0)
    return int((await reader.scan(_count(where, whole), *args))[0][0])


# What the matching rows moved, per currency (docs/transactions.md#reading): a debit's amount
# unless it was declined or reversed (nothing left the card), every fee but a reversed one's
# (returned with it); a credit's amount unless declined or reversed.
_TOTALS = """
SELECT t.currency,
  coalesce(sum(CASE WHEN t.direction = 'debit' AND t.status NOT IN ('declined', 'reversed')
                    THEN t.amount ELSE 0 END), 0)
  + coalesce(sum(CASE WHEN t.status <> 'reversed' THEN t.fee ELSE 0 END), 0) AS debits,
  coalesce(sum(CASE WHEN t.direction = 'credit' AND t.status NOT IN ('declined', 'reversed')
                    THEN t.amount ELSE 0 END), 0) AS credits
FROM transactions t WHERE {where} GROUP BY t.currency ORDER BY t.currency"""


async def report_totals(
    reader: Reader, user_uuid: uuid.UUID | None, filters: dict[str, Any]
) -> Sequence[Row] | None:
    """Per currency, the debits and credits (minor units) of the matching rows; None without
    a filter (the whole history: its statements sum it, docs/statements.md)."""
    if not filters:
        return None
    where, args, _whole = _where(user_uuid, filters)
    return await reader.scan(_TOTALS.format(where=where), *args)


Anchor = tuple[Any, Any]  # (created_at, uuid) of the row a keyset page starts after


async def report_after(
    reader: Reader,
    user_uuid: uuid.UUID | None,
    filters: dict[str, Any],
    anchor: Anchor | None,
    limit: int,
) -> tuple[Sequence[Row], bool]:
    """Up to `limit` matching rows after `anchor` in the report's order, and whether more
    follow: an index range scan from the anchor, whatever its depth (short unless filtered
    or many rows are asked)."""
    where, args, whole = _where(user_uuid, filters)
    short = whole and limit < SHORT_ROWS
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
    reader: Reader | Tx, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID
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


# Transaction rows as the hot write paths insert them.
_TRANSACTIONS = table_of(Transaction)
_EVENTS = table_of(Event)
_INSERTED_COLUMNS = tuple(_TRANSACTIONS.columns.keys())
_TRANSACTION_TYPES = pg_array_types(_TRANSACTIONS, _INSERTED_COLUMNS)
_EVENT_TYPES = pg_array_types(_EVENTS, WRITTEN_EVENT_COLUMNS)
_DEFAULTS: dict[str, Any] = {
    "fee": 0,
    "refunded_amount": 0,
    "authorized_amount": 0,
    "captured_amount": 0,
    "hold_expires_at": None,
    "merchant_amount": None,
    "merchant_captured_amount": None,
    "merchant_currency": None,
    "rate": None,
    "merchant_name": None,
    "merchant_mcc": None,
    "merchant_country": None,
    "merchant_city": None,
    "tag_slug": None,
    "error_slug": None,
    "flagged": False,
    "description": None,
    "parent_uuid": None,
    "decision": None,
    "captured_at": None,  # the database sets it when a purchase completes
    "channel": "sandbox",
    "network": None,  # JSON text of the network's data (channel iso8583)
    "token": None,  # JSON text {uuid, wallet, last4} of the wallet token that paid
    "stand_in": False,
    "shortfall": 0,
    "receipt_attachment_uuid": None,
    "auth_code": None,  # the approval code given (network.auth_code), for clearing to match
    "clearing": None,  # JSON text of the clearing record that booked it (channel clearing)
}


def transaction_row(**fields: Any) -> dict[str, Any]:
    """A new transaction row: `fields`, a fresh uuid unless given, the columns' defaults for
    the rest. `user_uuid`, `account_uuid`, `card_uuid`, `type`, `status`, `direction`,
    `amount`, `currency`, `created_at` and `updated_at` have none: leaving one out fails
    at the insert."""
    row = {**_DEFAULTS, **fields}
    if "uuid" not in fields:  # a uuid4 drawn only when none is given (the engine's are)
        row["uuid"] = uuid.uuid4()
    return row


def credit_row(
    purchase: Mapping[str, Any], type_: str, amount: int, description: str, now: datetime
) -> dict[str, Any]:
    """Money going back to a purchase's card (a refund, a dispute credit): a completed credit
    of the purchase's user, account, card and merchant, its `parent_uuid` the purchase."""
    same = (
        "user_uuid", "account_uuid", "card_uuid", "currency", "tag_slug", "merchant_name",
        "merchant_mcc", "merchant_country", "merchant_city",
    )  # fmt: skip
    return transaction_row(
        **{key: purchase[key] for key in same},
        type=type_,
        status="completed",
        direction="credit",
        amount=amount,
        description=description,
        parent_uuid=purchase["uuid"],
        created_at=now,
        updated_at=now,
    )


def _created_event(row: Mapping[str, Any]) -> dict[str, Any]:
    """A new transaction's `transaction.created`, its data the record as written."""
    data = dumps(transaction_record_of(row, money=minor_json)).decode()
    return written_event(
        "transaction.created", row["user_uuid"], "transaction", row["uuid"], row["created_at"],
        data,
    )  # fmt: skip


def transactions_insert(rows: Sequence[dict[str, Any]]) -> Insert:
    """The rows, each with its `transaction.created` event and the record it carries
    (docs/events.md#how-the-outbox-is-built), as an insert a ledger entry writes with itself
    (`post_entry(…, insert=…)`)."""
    created = [_created_event(row) for row in rows]
    events = Insert(_EVENTS.name, WRITTEN_EVENT_COLUMNS, created, types=_EVENT_TYPES)
    return Insert(
        _TRANSACTIONS.name, _INSERTED_COLUMNS, rows, then=events, types=_TRANSACTION_TYPES
    )


async def insert_transactions(tx: Tx, rows: Sequence[dict[str, Any]]) -> None:
    """Insert the rows with their events (one statement on PostgreSQL)."""
    await write_insert(tx, transactions_insert(rows))
