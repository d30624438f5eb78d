"""The statements of the teams' tables (team_budgets, team_requests, team_receipt_policies,
receipt_reminders) and the reads of the team's people and purchases they need. The budget
row's lock in an authorization is in transactions/locks.py (the lock order's place)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, date, datetime, time
from typing import Any

from cardservice.db.paging import Offset, paginate
from cardservice.db.sql import Reader, Row, Tx, insert_sql
from cardservice.teams.records import NEWEST_FIRST, request_columns

_TEAMMATE = "SELECT uuid, name, role FROM users WHERE uuid = $1 AND team_uuid = $2"
_OWN_ACCOUNT = "SELECT 1 FROM accounts WHERE uuid = $1 AND user_uuid = $2"
_BIN = "SELECT 1 FROM bins WHERE uuid = $1"
_HOLDS_CURRENCY = (
    "SELECT 1 FROM accounts WHERE user_uuid = $1 AND currency = $2 AND status <> 'closed'"
)

_MEMBER_CARDS = "SELECT member_cards FROM teams WHERE uuid = $1"
_SET_MEMBER_CARDS = "UPDATE teams SET member_cards = $2 WHERE uuid = $1"

# --- budgets. $2: the first day of this month (what `spent` counts from), $3 its first
# moment (UTC): purchases (`card_spend`) and ATM withdrawals, as transactions/budgets.py counts.
_BUDGETS = """
SELECT b.user_uuid, u.name, b.currency, b.amount, b.month_increase, b.increase_month,
  (SELECT coalesce(sum(s.amount), 0) FROM card_spend s JOIN cards c ON c.uuid = s.card_uuid
   WHERE c.user_uuid = b.user_uuid AND c.currency = b.currency AND s.spent_on >= $2)
  + (SELECT coalesce(sum(t.amount - t.refunded_amount), 0)
     FROM transactions t JOIN cards c ON c.uuid = t.card_uuid
     WHERE t.user_uuid = b.user_uuid AND t.type = 'atm_withdrawal' AND t.created_at >= $3
       AND t.status IN ('pending', 'completed', 'refunded') AND c.currency = b.currency) AS spent
FROM team_budgets b JOIN users u ON u.uuid = b.user_uuid
WHERE b.team_uuid = $1"""
_BUDGET_ORDER = " ORDER BY u.name, b.user_uuid"
# A new budget, or the member's budget replaced: a currency change drops the month's increase.
_PUT_BUDGET = """
INSERT INTO team_budgets (user_uuid, team_uuid, currency, amount, month_increase, increase_month,
                          created_at, updated_at)
VALUES ($1, $2, $3, $4, 0, NULL, $5, $5)
ON CONFLICT (user_uuid) DO UPDATE SET
  month_increase = CASE WHEN team_budgets.currency = EXCLUDED.currency
                        THEN team_budgets.month_increase ELSE 0 END,
  increase_month = CASE WHEN team_budgets.currency = EXCLUDED.currency
                        THEN team_budgets.increase_month END,
  team_uuid = EXCLUDED.team_uuid, currency = EXCLUDED.currency, amount = EXCLUDED.amount,
  updated_at = EXCLUDED.updated_at"""
_DELETE_BUDGET = "DELETE FROM team_budgets WHERE user_uuid = $1 AND team_uuid = $2 RETURNING 1"
_BUDGET_CURRENCY = "SELECT currency FROM team_budgets WHERE user_uuid = $1"
_RAISE_BUDGET = """
UPDATE team_budgets SET month_increase = $2, increase_month = $3, updated_at = $4
WHERE user_uuid = $1"""

# --- requests
_REQUEST_COLUMNS = request_columns("q", "requester", "decider")
_REQUEST_FROM = (
    "FROM team_requests q JOIN users requester ON requester.uuid = q.user_uuid"
    " LEFT JOIN users decider ON decider.uuid = q.decided_by"
)
_INSERT_REQUEST = insert_sql(
    "team_requests",
    ("uuid", "team_uuid", "user_uuid", "kind", "status", "details", "created_at", "updated_at"),
)
_REQUEST = f"SELECT {_REQUEST_COLUMNS} {_REQUEST_FROM} WHERE q.uuid = $1 AND q.team_uuid = $2"
_LOCK_REQUEST = (
    "SELECT status, user_uuid FROM team_requests WHERE uuid = $1 AND team_uuid = $2"
    " FOR NO KEY UPDATE"
)
_DECIDE = """
UPDATE team_requests SET status = $2, decided_by = $3, decision_reason = $4, result = $5,
  decided_at = $6, updated_at = $6
WHERE uuid = $1"""

# --- the receipt policy and its reminders
_POLICY_COLUMNS = (
    "team_uuid, min_amount, currency, remind_after_days, freeze_after_days, created_at, updated_at"
)
_POLICY = f"SELECT {_POLICY_COLUMNS} FROM team_receipt_policies WHERE team_uuid = $1"  # noqa: S608
_POLICIES = f"SELECT {_POLICY_COLUMNS} FROM team_receipt_policies ORDER BY team_uuid"  # noqa: S608
_PUT_POLICY = """
INSERT INTO team_receipt_policies (team_uuid, min_amount, currency, remind_after_days,
                                   freeze_after_days, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $6)
ON CONFLICT (team_uuid) DO UPDATE SET
  min_amount = EXCLUDED.min_amount, currency = EXCLUDED.currency,
  remind_after_days = EXCLUDED.remind_after_days, freeze_after_days = EXCLUDED.freeze_after_days,
  updated_at = EXCLUDED.updated_at"""
# A team's members' captured purchases the policy chases: $1 team, $2 currency, $3 min amount,
# $4 the policy's start (purchases captured before it are not chased).
_CHASED = """
FROM transactions t JOIN users u ON u.uuid = t.user_uuid JOIN cards c ON c.uuid = t.card_uuid
WHERE u.team_uuid = $1 AND u.role = 'member' AND t.type = 'card_purchase'
  AND t.status = 'completed' AND t.receipt_attachment_uuid IS NULL
  AND t.currency = $2 AND t.amount >= $3 AND t.captured_at >= $4"""
# ... due a reminder ($5: captured at or before) or, reminded, a freeze of an active card ($6)
_DUE = f"""
SELECT t.uuid, t.user_uuid, t.card_uuid, t.captured_at {_CHASED}
  AND t.captured_at <= $5
  AND (NOT EXISTS (SELECT 1 FROM receipt_reminders r WHERE r.transaction_uuid = t.uuid)
       OR (t.captured_at <= $6 AND c.status = 'active'))
ORDER BY t.uuid"""  # noqa: S608 - our fragments
# The card's other purchases ($1 card, $2 but this one) it was frozen for, still missing.
_FROZEN_FOR = """
SELECT count(*) FROM receipt_reminders r JOIN transactions t ON t.uuid = r.transaction_uuid
WHERE t.card_uuid = $1 AND t.uuid <> $2 AND r.frozen_at IS NOT NULL
  AND t.status = 'completed' AND t.receipt_attachment_uuid IS NULL"""
_MARK_FROZEN = (
    "UPDATE receipt_reminders SET frozen_at = $2 WHERE transaction_uuid = $1 AND frozen_at IS NULL"
)
# ... missing, for the team's pages: $5 limit (and $6 one member)
_MISSING = f"""
SELECT t.uuid, t.user_uuid, u.name, t.card_uuid, t.amount, t.currency, t.merchant_name,
  t.captured_at, c.status AS card_status, c.frozen_reason,
  EXISTS (SELECT 1 FROM receipt_reminders r WHERE r.transaction_uuid = t.uuid) AS reminded
{_CHASED}"""  # noqa: S608
_OLDEST_FIRST = " ORDER BY t.captured_at, t.uuid LIMIT $5"
_MISSING_NOW = """
SELECT status, receipt_attachment_uuid FROM transactions WHERE uuid = $1"""
_REMIND = """
INSERT INTO receipt_reminders (transaction_uuid, user_uuid, reminded_at) VALUES ($1, $2, $3)
ON CONFLICT (transaction_uuid) DO NOTHING RETURNING transaction_uuid"""


async def teammate(reader: Reader | Tx, user_uuid: uuid.UUID, team_uuid: uuid.UUID) -> Row | None:
    """The user (uuid, name, role) when they are of the team; None otherwise."""
    return await reader.row(_TEAMMATE, user_uuid, team_uuid)


async def owns_account(tx: Tx, user_uuid: uuid.UUID, account_uuid: uuid.UUID) -> bool:
    """The account is the user's."""
    return await tx.value(_OWN_ACCOUNT, account_uuid, user_uuid) is not None


async def bin_exists(tx: Tx, bin_uuid: uuid.UUID) -> bool:
    """The BIN is one of the catalogue's."""
    return await tx.value(_BIN, bin_uuid) is not None


async def holds_currency(tx: Tx, user_uuid: uuid.UUID, currency: str) -> bool:
    """The user has an account (not closed) in `currency`."""
    return await tx.value(_HOLDS_CURRENCY, user_uuid, currency) is not None


async def budgets(
    reader: Reader | Tx, team_uuid: uuid.UUID, month_start: date, member: uuid.UUID | None
) -> Sequence[Row]:
    """The team's budgets (or one member's) with the member's name and what their cards in the
    budget's currency spent (purchases and ATM withdrawals) since `month_start`, by name."""
    start = datetime.combine(month_start, time(), UTC)
    if member is None:
        return await reader.rows(_BUDGETS + _BUDGET_ORDER, team_uuid, month_start, start)
    sql = _BUDGETS + " AND b.user_uuid = $4" + _BUDGET_ORDER
    return await reader.rows(sql, team_uuid, month_start, start, member)


async def put_budget(
    tx: Tx, user_uuid: uuid.UUID, team_uuid: uuid.UUID, currency: str, amount: int, now: datetime
) -> None:
    """Set the member's monthly budget (replacing any)."""
    await tx.execute(_PUT_BUDGET, user_uuid, team_uuid, currency, amount, now)


async def delete_budget(tx: Tx, user_uuid: uuid.UUID, team_uuid: uuid.UUID) -> bool:
    """Remove the member's budget; whether there was one."""
    return await tx.value(_DELETE_BUDGET, user_uuid, team_uuid) is not None


async def budget_currency(reader: Reader | Tx, user_uuid: uuid.UUID) -> str | None:
    """The currency of the user's budget, or None when they have none."""
    found = await reader.value(_BUDGET_CURRENCY, user_uuid)
    return None if found is None else str(found)


async def raise_budget(
    tx: Tx, user_uuid: uuid.UUID, increase: int, month: str, now: datetime
) -> None:
    """The budget's increase for `month` becomes `increase` (the caller holds its lock)."""
    await tx.execute(_RAISE_BUDGET, user_uuid, increase, month, now)


async def insert_request(tx: Tx, row: dict[str, Any]) -> None:
    """A new pending request."""
    await tx.execute(
        _INSERT_REQUEST,
        row["uuid"], row["team_uuid"], row["user_uuid"], row["kind"], "pending", row["details"],
        row["created_at"], row["created_at"],
    )  # fmt: skip


async def team_request(
    reader: Reader | Tx, request_uuid: uuid.UUID, team_uuid: uuid.UUID
) -> Row | None:
    """One of the team's requests (`request_columns` first), or None."""
    return await reader.row(_REQUEST, request_uuid, team_uuid)


async def lock_request(tx: Tx, request_uuid: uuid.UUID, team_uuid: uuid.UUID) -> Row | None:
    """The team's request's status and requester, its row locked; None when not the team's."""
    return await tx.row(_LOCK_REQUEST, request_uuid, team_uuid)


async def decide(
    tx: Tx,
    request_uuid: uuid.UUID,
    status: str,
    decided_by: uuid.UUID,
    reason: str | None,
    result: str | None,
    now: datetime,
) -> None:
    """The request is decided (the caller holds its lock and saw it pending)."""
    await tx.execute(_DECIDE, request_uuid, status, decided_by, reason, result, now)


async def list_requests(
    reader: Reader,
    team_uuid: uuid.UUID,
    requester: uuid.UUID | None,
    status: str | None,
    page: Offset,
) -> tuple[list[Row], int]:
    """The team's requests (or one member's), newest first (ties by uuid), and how many match."""
    clauses, args = ["q.team_uuid = $1"], list[Any]([team_uuid])
    if requester is not None:
        args.append(requester)
        clauses.append(f"q.user_uuid = ${len(args)}")
    if status is not None:
        args.append(status)
        clauses.append(f"q.status = ${len(args)}")
    where = " AND ".join(clauses)
    rows, total = await paginate(
        reader,
        f"SELECT {_REQUEST_COLUMNS}, $TOTAL AS total {_REQUEST_FROM} WHERE {where} {NEWEST_FIRST}",
        args,
        page,
        count=f"SELECT count(*) FROM team_requests q WHERE {where}",  # noqa: S608
        walk=True,
    )
    return list(rows), total


async def policy(reader: Reader | Tx, team_uuid: uuid.UUID) -> Row | None:
    """The team's receipt policy, or None."""
    return await reader.row(_POLICY, team_uuid)


async def policies(reader: Reader | Tx) -> Sequence[Row]:
    """Every team's receipt policy."""
    return await reader.rows(_POLICIES)


async def put_policy(tx: Tx, team_uuid: uuid.UUID, values: Sequence[Any], now: datetime) -> None:
    """Set the team's policy: `values` = (min_amount, currency, remind, freeze days)."""
    await tx.execute(_PUT_POLICY, team_uuid, *values, now)


def _chased_args(policy: Row) -> list[Any]:
    return [policy["team_uuid"], policy["currency"], policy["min_amount"], policy["created_at"]]


async def due_purchases(
    reader: Reader | Tx, policy: Row, remind_before: datetime, freeze_before: datetime
) -> Sequence[Row]:
    """The purchases the policy has to act on: captured by `remind_before` and never reminded,
    or captured by `freeze_before` on a card still active (uuid, user_uuid, card_uuid)."""
    return await reader.rows(_DUE, *_chased_args(policy), remind_before, freeze_before)


async def frozen_for_others(tx: Tx, card_uuid: uuid.UUID, but: uuid.UUID) -> int:
    """How many other purchases of the card it was frozen for still miss their receipt."""
    return int(await tx.value(_FROZEN_FOR, card_uuid, but))


async def mark_frozen(tx: Tx, transaction_uuid: uuid.UUID, now: datetime) -> None:
    """The purchase's card is frozen for it (the reminder's row exists)."""
    await tx.execute(_MARK_FROZEN, transaction_uuid, now)


async def missing_receipts(
    reader: Reader | Tx, policy: Row, limit: int, member: uuid.UUID | None
) -> Sequence[Row]:
    """The purchases the policy chases that still have no receipt (or one member's), oldest
    first."""
    if member is None:
        return await reader.rows(_MISSING + _OLDEST_FIRST, *_chased_args(policy), limit)
    sql = _MISSING + " AND t.user_uuid = $6" + _OLDEST_FIRST
    return await reader.rows(sql, *_chased_args(policy), limit, member)


async def receipt_still_missing(tx: Tx, transaction_uuid: uuid.UUID) -> bool:
    """The purchase is still completed and without a receipt (read under its card's lock)."""
    row = await tx.row(_MISSING_NOW, transaction_uuid)
    return (
        row is not None and row["status"] == "completed" and row["receipt_attachment_uuid"] is None
    )


async def remind(tx: Tx, transaction_uuid: uuid.UUID, user_uuid: uuid.UUID, now: datetime) -> bool:
    """Record the purchase's reminder (its insert writes `transaction.receipt_missing`);
    False when it was reminded already (by this or another process)."""
    return await tx.value(_REMIND, transaction_uuid, user_uuid, now) is not None


async def member_cards(reader: Reader | Tx, team_uuid: uuid.UUID) -> str:
    """The team's card policy for its members (`direct` or `request`)."""
    return str(await reader.value(_MEMBER_CARDS, team_uuid))


async def set_member_cards(tx: Tx, team_uuid: uuid.UUID, policy: str) -> None:
    await tx.execute(_SET_MEMBER_CARDS, team_uuid, policy)
