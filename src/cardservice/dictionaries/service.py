"""The dictionary records: entries, tags (searched and ranked), BINs, rates; the statements are in
repository.py."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from decimal import Decimal

from cardservice.db.sql import Reader, Row, as_datetime, as_uuid, escape_like
from cardservice.dictionaries import repository
from cardservice.dictionaries.schemas import (
    BinRecord,
    BlockedTagRecord,
    DictionaryRecord,
    FxRateRecord,
    TagRecord,
)
from cardservice.ledger.minor_units import from_minor

POPULAR_TAGS = 30
SEARCH_RESULTS = 50


async def dictionary(reader: Reader, kind: str) -> list[DictionaryRecord]:
    rows = await repository.dictionary_rows(reader, kind)
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
    rows = await repository.popular_tag_rows(reader, POPULAR_TAGS)
    return [_tag(row) for row in rows]


async def search_tags(reader: Reader, search: str) -> list[TagRecord]:
    """Case-insensitive substring match; exact, then prefix, then word-start, then others."""
    needle = search.lower()
    rows = await repository.tag_rows_like(reader, f"%{escape_like(needle)}%")

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
    rows = await repository.blocked_tag_rows(reader)
    return [
        BlockedTagRecord(
            slug=r["slug"], name=r["name"], restriction=r["restriction"], reason=r["reason"] or ""
        )
        for r in rows
    ]


async def bins(reader: Reader) -> list[BinRecord]:
    rows = await repository.bin_rows(reader)
    return [
        BinRecord(
            uuid=as_uuid(b["uuid"]),
            bin=b["bin"],
            brand=b["brand"],
            currency=b["currency"],
            status=b["status"],
            card_price=None if b["card_price"] is None else from_minor(b["card_price"]),
        )
        for b in rows
    ]


async def fx_rates(reader: Reader, now: datetime) -> list[FxRateRecord]:
    """The rates foreign-currency authorizations convert with at `now`
    (docs/transactions.md#foreign-currency): each pair's rate set by the operator and in force,
    else the catalogue's."""
    found: dict[tuple[str, str], FxRateRecord] = {}
    for row in await repository.rate_rows(reader):
        since = datetime.combine(date.fromisoformat(row["set_on"]), time(), UTC)
        found[row["base"], row["quote"]] = _rate(row, since)
    for row in await repository.operator_rate_rows(reader, now):
        effective_at = as_datetime(row["effective_at"])
        assert effective_at is not None, "a NOT NULL column"
        found[row["base"], row["quote"]] = _rate(row, effective_at)
    return [found[pair] for pair in sorted(found)]


def _rate(row: Row, since: datetime) -> FxRateRecord:
    return FxRateRecord(
        base=row["base"],
        quote=row["quote"],
        rate=Decimal(row["rate"]),
        date=since.date().isoformat(),
        effective_at=since,
    )
