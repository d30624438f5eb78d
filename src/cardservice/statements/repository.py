"""Every statement of the statements: an account's and its cards' postings between two
instants, one row per journal entry, with the transaction it belongs to."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from cardservice.db.sql import Reader, Row

# The account's own postings and those of the cards it funds.
_HOLDERS = (
    "(p.account_uuid = $1 OR p.card_uuid IN (SELECT c.uuid FROM cards c WHERE c.account_uuid = $1))"
)

_OPENING = f"""
SELECT coalesce(sum(p.amount), 0) FROM postings p JOIN journal_entries e ON e.id = p.entry_id
WHERE {_HOLDERS} AND e.created_at < $2"""  # noqa: S608 - fixed text

_LINES = f"""
SELECT m.id, m.kind, m.created_at, m.amount, t.uuid AS transaction_uuid, t.type,
       t.merchant_name, t.description, t.merchant_amount, t.merchant_currency, t.fee
FROM (
    SELECT e.id, e.kind, e.reference, e.created_at, sum(p.amount) AS amount
    FROM postings p JOIN journal_entries e ON e.id = p.entry_id
    WHERE {_HOLDERS} AND e.created_at >= $2 AND e.created_at < $3
    GROUP BY e.id, e.kind, e.reference, e.created_at
) m LEFT JOIN transactions t ON t.uuid = m.reference
ORDER BY m.created_at, m.id"""  # noqa: S608 - fixed text


async def balance_before(reader: Reader, account: uuid.UUID, instant: datetime) -> int:
    """The account's and its cards' money just before `instant` (minor units)."""
    return int(await reader.value(_OPENING, account, instant))


async def entries_between(
    reader: Reader, account: uuid.UUID, start: datetime, end: datetime
) -> Sequence[Row]:
    """Per journal entry in `[start, end)`, what it moved to the account and its cards."""
    return await reader.scan(_LINES, account, start, end)
