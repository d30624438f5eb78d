"""The statements of the dictionaries, transaction tags, BINs, rates (service.py builds their
records), the fee plans and the users' fee overrides (fees.py holds the rules)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from cardservice.db.sql import Reader, Row, Tx, as_uuid, take_turn

_DICTIONARY = (
    "SELECT slug, name, description FROM dictionary_entries WHERE kind = $1 ORDER BY position"
)
# A tag's count: what the tag counter folded in (`tag_counts`), plus its transactions whose
# count still waits (committed since: one snapshot, so each is counted once)
_TAGS = (
    "(SELECT t.slug, t.name, t.category, t.hold_days,"
    " t.transactions_count + coalesce(w.waiting, 0) AS transactions_count"
    " FROM transaction_tags t LEFT JOIN (SELECT tag_slug, count(*) AS waiting"
    " FROM tag_counts_waiting GROUP BY tag_slug) w ON w.tag_slug = t.slug) tags"
)
TAG_COLUMNS = "slug, name, category, transactions_count, hold_days"
_POPULAR_TAGS = (
    f"SELECT {TAG_COLUMNS} FROM {_TAGS}"  # noqa: S608 - constant columns
    " ORDER BY transactions_count DESC, name LIMIT $1"
)
_TAGS_LIKE = f"SELECT {TAG_COLUMNS} FROM {_TAGS} WHERE lower(name) LIKE $1 ESCAPE '\\'"  # noqa: S608
TAG_COUNTER_LOCK = 15_003  # pg_advisory_xact_lock key: one tag counter at a time
# the committed waiting counts, added to their tags and deleted in one statement (what it
# deletes is what it adds: a count committed meanwhile waits for the next run)
_FOLD_PG = """
WITH gone AS (DELETE FROM tag_counts_waiting RETURNING tag_slug),
     n AS (SELECT tag_slug, count(*) AS c FROM gone GROUP BY tag_slug)
UPDATE transaction_tags t SET transactions_count = t.transactions_count + n.c
FROM n WHERE t.slug = n.tag_slug"""
# SQLite: the writer's turn holds the database, so nothing commits between the two
_FOLD_SQLITE = (
    "UPDATE transaction_tags SET transactions_count = transactions_count"
    " + (SELECT count(*) FROM tag_counts_waiting w WHERE w.tag_slug = transaction_tags.slug)"
    " WHERE slug IN (SELECT tag_slug FROM tag_counts_waiting)",
    "DELETE FROM tag_counts_waiting",
)
_ANY_WAITING = "SELECT 1 FROM tag_counts_waiting LIMIT 1"
_BLOCKED_TAGS = """
SELECT slug, name, restriction, reason FROM transaction_tags
WHERE restriction IS NOT NULL ORDER BY restriction, name"""
_EVERY_TAG = "SELECT slug, name, restriction FROM transaction_tags ORDER BY name"
_BINS = "SELECT uuid, bin, brand, currency, status, card_price FROM bins ORDER BY bin"
_AVAILABLE_BIN = "SELECT uuid FROM bins WHERE currency = $1 AND status = 'available' ORDER BY bin"
_RATES = "SELECT base, quote, rate, set_on FROM fx_rates ORDER BY base, quote"
# The operator's rates in force at $1 (docs/operations.md#your-own-catalogue): each pair's
# latest from then or before (a later entry wins a tie).
_OPERATOR_RATES = """
SELECT base, quote, rate, effective_at FROM (
  SELECT base, quote, rate, effective_at, row_number() OVER (
           PARTITION BY base, quote ORDER BY effective_at DESC, created_at DESC) AS newest
  FROM fx_rate_history WHERE effective_at <= $1) h
WHERE newest = 1"""
# The rate from $1 to $2 in force at $3: the operator's, else the catalogue's.
_RATE_IN_FORCE = """
SELECT coalesce(
  (SELECT h.rate FROM fx_rate_history h
   WHERE h.base = $1 AND h.quote = $2 AND h.effective_at <= $3
   ORDER BY h.effective_at DESC, h.created_at DESC LIMIT 1),
  (SELECT r.rate FROM fx_rates r WHERE r.base = $1 AND r.quote = $2))"""
_DEFAULT_PLAN = "SELECT slug, name, kind, value FROM fee_rates WHERE plan = $1 ORDER BY position"
_OVERRIDES = "SELECT slug, kind, value FROM user_fee_overrides WHERE user_uuid = $1"
_PROGRAM_FEES = """
SELECT p.fee_overrides FROM users u JOIN programs p ON p.uuid = u.program_uuid
WHERE u.uuid = $1"""


async def plan_rows(source: Reader | Tx, plan: str) -> Sequence[Row]:
    """The plan's fees (slug, name, kind, value), in plan order."""
    return await source.rows(_DEFAULT_PLAN, plan)


async def override_rows(reader: Reader, user_uuid: uuid.UUID) -> Sequence[Row]:
    """The user's fee overrides (slug, kind, value)."""
    return await reader.rows(_OVERRIDES, user_uuid)


async def program_fee_overrides(reader: Reader, user_uuid: uuid.UUID) -> str | None:
    """The user's program's fees as stored (JSON), None outside a program or without any."""
    found: str | None = await reader.value(_PROGRAM_FEES, user_uuid)
    return found


async def dictionary_rows(reader: Reader, kind: str) -> Sequence[Row]:
    """The entries of one dictionary (slug, name, description), in their order."""
    return await reader.rows(_DICTIONARY, kind)


async def popular_tag_rows(reader: Reader, limit: int) -> Sequence[Row]:
    """The `limit` tags carried by most transactions (ties by name): `TAG_COLUMNS`."""
    return await reader.rows(_POPULAR_TAGS, limit)


async def any_tag_count_waiting(reader: Reader) -> bool:
    """Whether a tagged transaction's count waits for the tag counter."""
    return await reader.value(_ANY_WAITING) is not None


async def fold_tag_counts(tx: Tx, wait: bool) -> bool:
    """Add the committed waiting counts to their tags, in this unit; False when another tag
    counter holds the turn and `wait` is false (PostgreSQL; SQLite's writer is the turn)."""
    if not await take_turn(tx, TAG_COUNTER_LOCK, wait=wait):
        return False
    if tx.dialect == "postgresql":
        await tx.execute(_FOLD_PG)
        return True
    for statement in _FOLD_SQLITE:
        await tx.execute(statement)
    return True


async def tag_rows_like(reader: Reader, pattern: str) -> Sequence[Row]:
    """The tags whose lowercased name is LIKE `pattern` (escaped with a backslash)."""
    return await reader.rows(_TAGS_LIKE, pattern)


async def blocked_tag_rows(reader: Reader) -> Sequence[Row]:
    """The tags with a restriction (slug, name, restriction, reason), by restriction, name."""
    return await reader.rows(_BLOCKED_TAGS)


async def every_tag(source: Reader | Tx) -> Sequence[Row]:
    """Every tag (slug, name, restriction) by name."""
    return await source.rows(_EVERY_TAG)


async def bin_rows(reader: Reader) -> Sequence[Row]:
    return await reader.rows(_BINS)


async def available_bin(source: Reader | Tx, currency: str) -> uuid.UUID | None:
    """The first available BIN of the currency, by number."""
    return as_uuid(await source.value(_AVAILABLE_BIN, currency))


async def rate_rows(reader: Reader) -> Sequence[Row]:
    """The catalogue's rate table (base, quote, rate, set_on), by base and quote."""
    return await reader.rows(_RATES)


async def operator_rate_rows(reader: Reader, at: datetime) -> Sequence[Row]:
    """The operator's rates in force at `at` (base, quote, rate, effective_at), one a pair."""
    return await reader.rows(_OPERATOR_RATES, at)


async def rate_in_force(source: Reader | Tx, base: str, quote: str, at: datetime) -> Any:
    """The rate from `base` to `quote` in force at `at` as stored (text), or None when
    neither the operator nor the catalogue has the pair."""
    return await source.value(_RATE_IN_FORCE, base, quote, at)
