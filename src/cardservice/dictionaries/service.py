"""Queries behind the dictionary endpoints."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.dictionaries.schemas import (
    BinRecord,
    BlockedTagRecord,
    DictionaryRecord,
    TagRecord,
)
from cardservice.models import Bin, DictionaryEntry, TransactionTag
from cardservice.web import escape_like

POPULAR_TAGS = 30
SEARCH_RESULTS = 50


async def dictionary(session: AsyncSession, kind: str) -> list[DictionaryRecord]:
    rows = await session.scalars(
        select(DictionaryEntry)
        .where(DictionaryEntry.kind == kind)
        .order_by(DictionaryEntry.position)
    )
    return [DictionaryRecord(slug=r.slug, name=r.name, description=r.description) for r in rows]


def _tag(tag: TransactionTag) -> TagRecord:
    return TagRecord(
        slug=tag.slug,
        name=tag.name,
        category=tag.category,
        transactions_count=tag.transactions_count,
    )


async def popular_tags(session: AsyncSession) -> list[TagRecord]:
    """The 30 tags carried by most transactions (ties by name), via the popularity index."""
    rows = await session.scalars(
        select(TransactionTag)
        .order_by(TransactionTag.transactions_count.desc(), TransactionTag.name)
        .limit(POPULAR_TAGS)
    )
    return [_tag(tag) for tag in rows]


async def search_tags(session: AsyncSession, search: str) -> list[TagRecord]:
    """Case-insensitive substring match; exact, then prefix, then word-start, then others."""
    needle = search.lower()
    rows = (
        await session.scalars(
            select(TransactionTag).where(
                func.lower(TransactionTag.name).like(f"%{escape_like(needle)}%", escape="\\")
            )
        )
    ).all()

    def rank(tag: TransactionTag) -> tuple[int, int, str]:
        name = tag.name.lower()
        closeness = (
            0
            if name == needle
            else 1
            if name.startswith(needle)
            else 2
            if f" {needle}" in f" {name}"
            else 3
        )
        return closeness, -tag.transactions_count, name

    return [_tag(tag) for tag in sorted(rows, key=rank)[:SEARCH_RESULTS]]


async def blocked_tags(session: AsyncSession) -> list[BlockedTagRecord]:
    rows = await session.scalars(
        select(TransactionTag)
        .where(TransactionTag.restriction.is_not(None))
        .order_by(TransactionTag.restriction, TransactionTag.name)
    )
    return [
        BlockedTagRecord(
            slug=t.slug,
            name=t.name,
            restriction=t.restriction,
            reason=t.reason or "",
        )
        for t in rows
    ]


async def bins(session: AsyncSession) -> list[BinRecord]:
    rows = await session.scalars(select(Bin).order_by(Bin.bin))
    return [
        BinRecord(uuid=b.uuid, bin=b.bin, brand=b.brand, currency=b.currency, status=b.status)
        for b in rows
    ]
