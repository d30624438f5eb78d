"""The written lock order's statements (docs/ledger.md, "Lock order"), in one place.

Every write takes its row locks through these functions, in this order inside its one unit
of work: the account, then the card(s) by uuid, then a team member's budget row, then the
transaction rows by uuid; the counter rows are the database's (its triggers take them
last). `FOR NO KEY UPDATE` is dropped on SQLite, where the writer's turn is the lock (sql.py).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from cardservice.db.sql import Row, Tx, as_uuid, in_list
from cardservice.errors import TransactionNotFound
from cardservice.transactions.records import TRANSACTION_FIELDS, Purchase, transaction_columns

# --- 1. accounts
_ACCOUNT = """
SELECT status, currency, balance FROM accounts WHERE uuid = $1 AND user_uuid = $2
FOR NO KEY UPDATE"""
# Parameters: $1 account (whoever's: an operator's move).
_ANY_ACCOUNT = """
SELECT user_uuid, currency, balance FROM accounts WHERE uuid = $1
FOR NO KEY UPDATE"""
# Parameters: $1 card, $2 user.
_ACCOUNT_OF_CARD = """
SELECT a.uuid, a.status, a.balance, u.status AS user_status
FROM cards c JOIN accounts a ON a.uuid = c.account_uuid JOIN users u ON u.uuid = c.user_uuid
WHERE c.uuid = $1 AND c.user_uuid = $2
FOR NO KEY UPDATE OF a"""


def authorization_account_sql(source: str, card: str, more: str = "") -> str:
    """An authorization's account row (transactions/engine.py): the account of the card `card`
    (an alias in `source` with `account_uuid`, `user_uuid` and `currency`) locked, with what
    its rules read of the owner besides, in the same round trip: the program's controls and
    fees (read, not locked) and whether the owner has a team budget in the card's currency
    (that row is locked only then, after the card: `lock_budget`). The caller adds its WHERE;
    the lock is `FOR NO KEY UPDATE OF a`. One text for the engine's lock and the ISO 8583
    host's first statement (network/repository.py), which must read the same row. `more`: columns
    read besides, first."""
    return (
        f"SELECT {more}a.uuid, a.status, a.balance, u.status AS user_status,"  # noqa: S608 - our aliases
        " p.spending_controls AS program_controls, p.fee_overrides AS program_fees,"
        " b.currency AS budget_currency"
        f" FROM {source} JOIN accounts a ON a.uuid = {card}.account_uuid"
        f" JOIN users u ON u.uuid = {card}.user_uuid"
        " LEFT JOIN programs p ON p.uuid = u.program_uuid"
        f" LEFT JOIN team_budgets b ON b.user_uuid = u.uuid AND b.currency = {card}.currency"
    )


_AUTHORIZATION_ACCOUNT = (
    authorization_account_sql("cards c", "c")
    + " WHERE c.uuid = $1 AND c.user_uuid = $2 FOR NO KEY UPDATE OF a"
)
# A set of force posts' accounts (transactions/force_posts.py): the rows of
# `_AUTHORIZATION_ACCOUNT`, one a card with its uuid and user, in the accounts' order.
_FORCE_POST_ACCOUNTS = authorization_account_sql(
    "cards c", "c", "c.uuid AS card_uuid, c.user_uuid AS card_user_uuid, "
)
# Parameters: $1 transaction, $2 user.
_ACCOUNT_OF_TRANSACTION = """
SELECT t.card_uuid FROM transactions t JOIN accounts a ON a.uuid = t.account_uuid
WHERE t.uuid = $1 AND t.user_uuid = $2
FOR NO KEY UPDATE OF a"""
# The hold sweep's claim: $1 now, $2 batch size; busy accounts are skipped, not waited on.
_ACCOUNTS_OF_DUE_HOLDS = """
SELECT t.uuid, t.user_uuid FROM transactions t JOIN accounts a ON a.uuid = t.account_uuid
WHERE t.status = 'pending' AND t.type IN ('card_purchase', 'atm_withdrawal')
  AND t.hold_expires_at <= $1
ORDER BY t.user_uuid, t.account_uuid, t.uuid
LIMIT $2
FOR NO KEY UPDATE OF a SKIP LOCKED"""

# --- 2. cards
_CARD = (
    "SELECT uuid, account_uuid, currency, status, balance, frozen_reason, form, activated_at"
    " FROM cards WHERE uuid = $1 FOR NO KEY UPDATE"
)
# A card as the authorization engine needs it, the columns named as on the table.
_CARD_NAMES = (
    "uuid", "user_uuid", "account_uuid", "currency", "balance", "status", "expiry_month",
    "expiry_year", "auto_replenish_amount", "auto_replenish_min_balance", "spending_controls",
    "card_type", "locked_merchant",  # the card type's rules (transactions/card_types.py)
    "frozen_reason", "verification_failures",  # the card-testing guard's
    "form", "pin_pvv", "pin_blocked", "pin_failures",  # where it is presented, its PIN
)  # fmt: skip
CARD_COLUMNS = ", ".join(f"c.{name}" for name in _CARD_NAMES)
# ... with the user's fee overrides (one row an override), their decision endpoint
# (docs/controls.md#the-decision-endpoint) and the request's merchant tag: each column's name
# and what it reads
_CARD_WITH_FEES = (
    *((name, f"c.{name}") for name in _CARD_NAMES),
    ("fee_slug", "o.slug"), ("fee_kind", "o.kind"), ("fee_value", "o.value"),
    ("endpoint_url", "e.url"), ("endpoint_secret", "e.secret_ciphertext"),
    ("endpoint_timeout_ms", "e.timeout_ms"), ("endpoint_on_timeout", "e.on_timeout"),
    ("endpoint_failures", "e.consecutive_failures"),
    ("endpoint_stand_in_until", "e.stand_in_until"),
    ("tag_slug", "t.slug"), ("tag_restriction", "t.restriction"), ("tag_hold_days", "t.hold_days"),
)  # fmt: skip
CARD_WITH_FEES_NAMES = tuple(name for name, _read in _CARD_WITH_FEES)


def card_with_fees_sql(
    user: str, tag: str, prefix: str = "", more: str = "", source: str = "cards c"
) -> str:
    """The card `c` as `lock_card_with_fees` reads it: with the fee overrides and decision
    endpoint of `user` and the merchant tag `tag` (NULL: none named), each column named
    `prefix` + its name in `CARD_WITH_FEES_NAMES`, in that order; `more`: columns read first,
    `source`: `cards c` and what it is joined to. The caller adds its WHERE and the lock,
    `FOR NO KEY UPDATE OF c`. One text for the engine's lock and the ISO 8583 host's first
    statement (network/repository.py), which must read the same rows."""
    columns = ", ".join(f"{read} AS {prefix}{name}" for name, read in _CARD_WITH_FEES)
    return (
        f"SELECT {more}{columns} FROM {source}"  # noqa: S608 - our columns and expressions
        f" LEFT JOIN user_fee_overrides o ON o.user_uuid = {user}"
        f" LEFT JOIN authorization_endpoints e ON e.user_uuid = {user}"
        f" LEFT JOIN transaction_tags t ON t.slug = {tag}"
    )


# Parameters: $1 card, $2 user, $3 tag (NULL: none).
_CARD_WITH_FEES_LOCKED = (
    card_with_fees_sql("$2", "$3") + " WHERE c.uuid = $1 FOR NO KEY UPDATE OF c"
)

# A set of force posts' cards: the engine's columns and each user's fee overrides (one row an
# override, or one with none), in the cards' order.
_FORCE_POST_CARDS = f"""
SELECT {CARD_COLUMNS}, o.slug AS fee_slug, o.kind AS fee_kind, o.value AS fee_value
FROM cards c LEFT JOIN user_fee_overrides o ON o.user_uuid = c.user_uuid"""  # noqa: S608

# --- 3. a team member's budget (docs/teams.md#teams-budgets-requests-receipts): after the card,
# before the transaction rows Parameters: $1 member, $2 currency.
_BUDGET = """
SELECT amount, month_increase, increase_month FROM team_budgets
WHERE user_uuid = $1 AND currency = $2
FOR NO KEY UPDATE"""

# --- 4. transaction rows
_PENDING_OF_CARD = (
    "SELECT uuid FROM transactions WHERE card_uuid = $1"
    " AND type IN ('card_purchase', 'atm_withdrawal')"
    " AND status = 'pending' ORDER BY uuid FOR NO KEY UPDATE"
)
_PURCHASE_FIELDS = (*TRANSACTION_FIELDS, "user_uuid", "captured_at")
_PURCHASE = f"{transaction_columns('t')}, t.user_uuid, t.captured_at"
_TRANSACTION = f"SELECT {_PURCHASE} FROM transactions t WHERE t.uuid = $1 FOR NO KEY UPDATE"  # noqa: S608
_TRANSACTION_OF_USER = (
    f"SELECT {_PURCHASE} FROM transactions t"  # noqa: S608
    " WHERE t.uuid = $1 AND t.user_uuid = $2 FOR NO KEY UPDATE"
)


async def lock_account(tx: Tx, user_uuid: uuid.UUID, account_uuid: uuid.UUID) -> Row | None:
    """One of the user's accounts (status, currency, balance), locked; None if not theirs."""
    return await tx.row(_ACCOUNT, account_uuid, user_uuid)


async def lock_any_account(tx: Tx, account_uuid: uuid.UUID) -> Row | None:
    """Any user's account (user_uuid, currency, balance), locked; None if there is none
    (the operator's debit, docs/operations.md#running-a-program)."""
    return await tx.row(_ANY_ACCOUNT, account_uuid)


async def lock_card_account(tx: Tx, user_uuid: uuid.UUID, card_uuid: uuid.UUID) -> Row | None:
    """The account (uuid, status, balance) of one of the user's cards, locked and read as it
    is now, with the owner's `user_status` (docs/operations.md#running-a-program: a suspended user's
    cards decline); None when the card is not the user's. Only the account row is locked."""
    return await tx.row(_ACCOUNT_OF_CARD, card_uuid, user_uuid)


async def lock_authorization_account(
    tx: Tx, user_uuid: uuid.UUID, card_uuid: uuid.UUID
) -> Row | None:
    """`lock_card_account`'s row with the owner's `program_controls` (JSON as stored, None
    without a program or controls) and `budget_currency` (the card's currency when the owner
    has a team budget in it, else None), in the same statement."""
    return await tx.row(_AUTHORIZATION_ACCOUNT, card_uuid, user_uuid)


async def lock_transaction_account(
    tx: Tx, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID
) -> Row | None:
    """The account of one of the user's transactions, locked; the row has its `card_uuid`.
    None when the transaction is not the user's."""
    return await tx.row(_ACCOUNT_OF_TRANSACTION, transaction_uuid, user_uuid)


async def claim_due_holds(tx: Tx, now: datetime, batch: int) -> Sequence[Row]:
    """Up to `batch` pending purchases (uuid, user_uuid) whose hold is due at `now`, their
    accounts locked (a locked account's are skipped: another sweeper has them)."""
    return await tx.rows(_ACCOUNTS_OF_DUE_HOLDS, now, batch)


async def lock_card(tx: Tx, card_uuid: uuid.UUID) -> Row | None:
    """The card (uuid, account_uuid, currency, status, balance, frozen_reason, form,
    activated_at), locked; its account's lock is the caller's, taken first."""
    return await tx.row(_CARD, card_uuid)


async def lock_card_columns(tx: Tx, card_uuid: uuid.UUID, columns: Sequence[str]) -> Row | None:
    """The card's named columns (ours, never the caller's), locked; its account's lock is the
    caller's, taken first (a replacement reads the whole row,
    docs/operations.md#running-a-program)."""
    sql = f"SELECT {', '.join(columns)} FROM cards WHERE uuid = $1 FOR NO KEY UPDATE"  # noqa: S608
    return await tx.row(sql, card_uuid)


async def lock_card_with_fees(
    tx: Tx, user_uuid: uuid.UUID, card_uuid: uuid.UUID, tag: str | None
) -> Sequence[Row]:
    """The card row, locked and read as it is now, joined with the user's fee overrides (one
    row per override, or one row with none), the user's decision endpoint (`endpoint_*`,
    None when there is none) and the merchant tag when one is named (`tag_slug` is None when
    no such tag exists). Only the card row is locked."""
    return await tx.rows(_CARD_WITH_FEES_LOCKED, card_uuid, user_uuid, tag)


async def lock_force_post_accounts(tx: Tx, card_uuids: Sequence[uuid.UUID]) -> Sequence[Row]:
    """The accounts of the cards, locked in one statement in the accounts' order, as
    `lock_authorization_account` reads one, with `card_uuid` and `card_user_uuid`: one row a
    card (a card that is gone has none)."""
    if not card_uuids:
        return []
    where, args = _any_card(tx, card_uuids)
    return await tx.rows(
        f"{_FORCE_POST_ACCOUNTS}{where} ORDER BY a.uuid FOR NO KEY UPDATE OF a", *args
    )


async def lock_force_post_cards(tx: Tx, card_uuids: Sequence[uuid.UUID]) -> Sequence[Row]:
    """The cards, locked in one statement in their order, as `lock_card_with_fees` reads one
    (without the endpoint and the tag), their accounts' locks taken first."""
    if not card_uuids:
        return []
    where, args = _any_card(tx, card_uuids)
    return await tx.rows(
        f"{_FORCE_POST_CARDS}{where} ORDER BY c.uuid FOR NO KEY UPDATE OF c", *args
    )


def _any_card(tx: Tx, card_uuids: Sequence[uuid.UUID]) -> tuple[str, list[Any]]:
    """`WHERE c.uuid` is one of the cards: an array on PostgreSQL (one statement text
    whatever their count), a list of values on SQLite."""
    if tx.dialect == "postgresql":
        return " WHERE c.uuid = ANY(CAST($1 AS uuid[]))", [list(card_uuids)]
    return f" WHERE c.uuid IN {in_list(len(card_uuids))}", list(card_uuids)


async def lock_budget(tx: Tx, user_uuid: uuid.UUID, currency: str) -> Row | None:
    """The user's team budget in `currency` (amount, month_increase, increase_month), locked;
    None when they have none in it. Every authorization of the user's cards in that currency
    takes it after its card, so authorizations on two of their cards are checked one after
    the other."""
    return await tx.row(_BUDGET, user_uuid, currency)


async def lock_pending_purchases(tx: Tx, card_uuid: uuid.UUID) -> list[uuid.UUID]:
    """The card's pending purchases, their rows locked in uuid order."""
    rows = await tx.rows(_PENDING_OF_CARD, card_uuid)
    return [purchase for row in rows if (purchase := as_uuid(row["uuid"])) is not None]


async def locked_purchase(
    tx: Tx, transaction_uuid: uuid.UUID, user_uuid: uuid.UUID | None = None
) -> Purchase | None:
    """The transaction row, locked, as a `Purchase` (every column, plus `user_uuid` and
    `captured_at`); with `user_uuid`, None unless it is that user's. The caller holds the
    account's and card's locks already when it will move money."""
    if user_uuid is None:
        row = await tx.row(_TRANSACTION, transaction_uuid)
    else:
        row = await tx.row(_TRANSACTION_OF_USER, transaction_uuid, user_uuid)
    if row is None:
        return None
    return Purchase.of({name: row[name] for name in _PURCHASE_FIELDS})


async def lock_purchase(
    tx: Tx, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID
) -> tuple[Purchase, str | None]:
    """The user's transaction with its account, card and row locked, in that order (any type
    or status), and its card's status (None without a card); anybody else's is 404."""
    found = await lock_transaction_account(tx, user_uuid, transaction_uuid)
    if found is None:
        raise TransactionNotFound()
    card_status = None
    if found["card_uuid"] is not None:
        card = await lock_card(tx, found["card_uuid"])
        card_status = None if card is None else card["status"]
    purchase = await locked_purchase(tx, transaction_uuid)
    assert purchase is not None, "a transaction is never deleted"
    return purchase, card_status


def overrides_in(rows: Sequence[Row]) -> set[tuple[str, str, int]]:
    """The fee overrides `(slug, kind, value)` carried by the rows of `lock_card_with_fees`."""
    return {
        (r["fee_slug"], r["fee_kind"], r["fee_value"]) for r in rows if r["fee_slug"] is not None
    }
