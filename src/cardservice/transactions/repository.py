"""The statements of the transactions' tables (transactions, three_ds_codes, card_spend) and
the reference rows an authorization reads (transaction_tags, fx_rates). The lock order's
statements are in locks.py, the inserts of new rows in rows.py, the report reads in
reports.py (still to fold in here: docs/architecture.md, "The layers, checked")."""

from __future__ import annotations

import uuid

from cardservice.sql import Tx, as_uuid

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
