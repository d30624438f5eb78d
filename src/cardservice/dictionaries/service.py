"""Queries behind the dictionary endpoints."""

from __future__ import annotations

from decimal import Decimal

from cardservice.dictionaries.schemas import (
    BinRecord,
    BlockedTagRecord,
    DictionaryRecord,
    FxRateRecord,
    TagRecord,
)
from cardservice.filters import escape_like
from cardservice.sql import Reader, Row, as_uuid

POPULAR_TAGS = 30
SEARCH_RESULTS = 50
_TAG_COLUMNS = "slug, name, category, transactions_count, hold_days"


async def dictionary(reader: Reader, kind: str) -> list[DictionaryRecord]:
    rows = await reader.rows(
        "SELECT slug, name, description FROM dictionary_entries WHERE kind = $1 ORDER BY position",
        kind,
    )
    return [
        DictionaryRecord(slug=r["slug"], name=r["name"], description=r["description"]) for r in rows
    ]


def _tag(row: Row) -> TagRecord:
    return TagRecord(
        slug=row["slug"],
        name=row["name"],
        category=row["category"],
        transactions_count=row["transactions_count"],
        hold_days=row["hold_days"],
    )


async def popular_tags(reader: Reader) -> list[TagRecord]:
    """The 30 tags carried by most transactions (ties by name), via the popularity index."""
    rows = await reader.rows(
        f"SELECT {_TAG_COLUMNS} FROM transaction_tags"  # noqa: S608 - constant columns
        " ORDER BY transactions_count DESC, name LIMIT $1",
        POPULAR_TAGS,
    )
    return [_tag(row) for row in rows]


async def search_tags(reader: Reader, search: str) -> list[TagRecord]:
    """Case-insensitive substring match; exact, then prefix, then word-start, then others."""
    needle = search.lower()
    rows = await reader.rows(
        f"SELECT {_TAG_COLUMNS} FROM transaction_tags"  # noqa: S608 - constant columns
        " WHERE lower(name) LIKE $1 ESCAPE '\\'",
        f"%{escape_like(needle)}%",
    )

    def rank(row: Row) -> tuple[int, int, str]:
        name = row["name"].lower()
        closeness = (
            0
            if name == needle
            else 1
            if name.startswith(needle)
            else 2
            if f" {needle}" in f" {name}"
            else 3
        )
        return closeness, -row["transactions_count"], name

    return [_tag(row) for row in sorted(rows, key=rank)[:SEARCH_RESULTS]]


async def blocked_tags(reader: Reader) -> list[BlockedTagRecord]:
    rows = await reader.rows(
        "SELECT slug, name, restriction, reason FROM transaction_tags"
        " WHERE restriction IS NOT NULL ORDER BY restriction, name"
    )
    return [
        BlockedTagRecord(
            slug=r["slug"], name=r["name"], restriction=r["restriction"], reason=r["reason"] or ""
        )
        for r in rows
    ]


async def bins(reader: Reader) -> list[BinRecord]:
    rows = await reader.rows("SELECT uuid, bin, brand, currency, status FROM bins ORDER BY bin")
    return [
        BinRecord(
            uuid=as_uuid(b["uuid"]),
            bin=b["bin"],
            brand=b["brand"],
            currency=b["currency"],
            status=b["status"],
        )
        for b in rows
    ]


async def fx_rates(reader: Reader) -> list[FxRateRecord]:
    """The rate table foreign-currency authorizations convert with (API.md §12)."""
    rows = await reader.rows("SELECT base, quote, rate, set_on FROM fx_rates ORDER BY base, quote")
    return [
        FxRateRecord(base=r["base"], quote=r["quote"], rate=Decimal(r["rate"]), date=r["set_on"])
        for r in rows
    ]
