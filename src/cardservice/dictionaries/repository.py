"""The statements of the dictionaries, transaction tags, BINs, rates (service.py builds their
records), the fee plans and the users' fee overrides (fees.py holds the rules)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from cardservice.db.sql import Reader, Row, Tx, as_uuid

_DICTIONARY = (
    "SELECT slug, name, description FROM dictionary_entries WHERE kind = $1 ORDER BY position"
)
TAG_COLUMNS = "slug, name, category, transactions_count, hold_days"
_POPULAR_TAGS = (
    f"SELECT {TAG_COLUMNS} FROM transaction_tags"  # noqa: S608 - constant columns
    " ORDER BY transactions_count DESC, name LIMIT $1"
)
_TAGS_LIKE = f"SELECT {TAG_COLUMNS} FROM transaction_tags WHERE lower(name) LIKE $1 ESCAPE '\\'"  # noqa: S608
_BLOCKED_TAGS = """
SELECT slug, name, restriction, reason FROM transaction_tags
WHERE restriction IS NOT NULL ORDER BY restriction, name"""
_EVERY_TAG = "SELECT slug, name, restriction FROM transaction_tags ORDER BY name"
_BINS = "SELECT uuid, bin, brand, currency, status FROM bins ORDER BY bin"
_AVAILABLE_BIN = "SELECT uuid FROM bins WHERE currency = $1 AND status = 'available' ORDER BY bin"
_RATES = "SELECT base, quote, rate, set_on FROM fx_rates ORDER BY base, quote"
_DEFAULT_PLAN = "SELECT slug, name, kind, value FROM fee_rates WHERE plan = $1 ORDER BY position"
_OVERRIDES = "SELECT slug, kind, value FROM user_fee_overrides WHERE user_uuid = $1"


async def plan_rows(source: Reader | Tx, plan: str) -> Sequence[Row]:
    """The plan's fees (slug, name, kind, value), in plan order."""
    return await source.rows(_DEFAULT_PLAN, plan)


async def override_rows(reader: Reader, user_uuid: uuid.UUID) -> Sequence[Row]:
    """The user's fee overrides (slug, kind, value)."""
    return await reader.rows(_OVERRIDES, user_uuid)


async def dictionary_rows(reader: Reader, kind: str) -> Sequence[Row]:
    """The entries of one dictionary (slug, name, description), in their order."""
    return await reader.rows(_DICTIONARY, kind)


async def popular_tag_rows(reader: Reader, limit: int) -> Sequence[Row]:
    """The `limit` tags carried by most transactions (ties by name): `TAG_COLUMNS`."""
    return await reader.rows(_POPULAR_TAGS, limit)


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
    """The rate table (base, quote, rate, set_on), by base and quote."""
    return await reader.rows(_RATES)
