"""Pagination: page numbers (docs/api.md#pagination: `page` ≥ 1, `per_page` within the list's
bounds; the query parameters are read at the edge, `web.StandardPage`, `web.CardPage`) and keyset
pages (docs/transactions.md#reading), and `paginate`, the one paging query every paged list runs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, overload

from cardservice.db.sql import Reader, Row

MAX_PAGE = 2**63 - 1  # `page` is an int64 (JSON and the databases' integers)
MAX_OFFSET = 2**62  # below every database's 64-bit OFFSET; any page that deep is empty


@dataclass(frozen=True, slots=True)
class Page:
    number: int
    size: int

    @property
    def offset(self) -> int:
        """Rows before this page, capped so a huge `page` cannot overflow the SQL OFFSET."""
        return min((self.number - 1) * self.size, MAX_OFFSET)

    def meta(self, total: int) -> dict[str, int]:
        return {
            "current_page": self.number,
            "per_page": self.size,
            "total": total,
            "last_page": max(1, -(-total // self.size)),
        }


@dataclass(frozen=True, slots=True)
class Offset:
    """Page numbers: `limit` rows after the first `offset` (`Page.offset`, `Page.size`)."""

    offset: int
    limit: int


@dataclass(frozen=True, slots=True)
class Keyset:
    """A keyset page (docs/transactions.md#reading): `limit` rows after the row whose order key
    `key` (a column, or a row of columns such as `(t.created_at, t.uuid)`) is `after`; None: from
    the first."""

    limit: int
    key: str
    after: tuple[Any, ...] | None = None
    descending: bool = False


@overload
async def paginate(
    reader: Reader,
    statement: str,
    args: Sequence[Any],
    page: Offset,
    *,
    count: str,
    total: str = "",
    walk: bool = False,
) -> tuple[Sequence[Row], int]: ...


@overload
async def paginate(
    reader: Reader, statement: str, args: Sequence[Any], page: Keyset, *, walk: bool = False
) -> tuple[Sequence[Row], bool]: ...


async def paginate(
    reader: Reader,
    statement: str,
    args: Sequence[Any],
    page: Offset | Keyset,
    *,
    count: str = "",
    total: str = "",
    walk: bool = False,
) -> tuple[Sequence[Row], int | bool]:
    """The one paging query of every list: a page's rows and how many match in all (`Offset`),
    or whether more follow (`Keyset`, one row looked ahead).

    `statement` is the list's select, its filter's values `args` as `$1…`, ending with its
    ORDER BY. `$TOTAL` in it (`Offset`) is where each row carries the total — by default the
    `count` statement as a scalar subquery, computed once (a window count would read every
    matching row in full before the limit), or the expression `total`; past the last page no
    row carries it and `count` runs alone (as it does after the page when a list's rows have
    no room for a total: their record is built from every column). `$PAGE` is where the
    LIMIT goes when it is not last (a "deferred join" finds the page's keys first); `$AFTER`
    (`Keyset`) is where the condition on the order key goes, after the WHERE's own clauses.
    `walk`: the statement may walk many rows (`Reader.scan`, off the event loop on SQLite)."""
    n = len(args)
    read = reader.scan if walk else reader.rows
    if isinstance(page, Keyset):
        after = ""
        if page.after is not None:
            marks = ", ".join(f"${n + i}" for i in range(1, len(page.after) + 1))
            after = f" AND {page.key} {'<' if page.descending else '>'} ({marks})"
            args = [*args, *page.after]
        limit = f"LIMIT ${len(args) + 1}"
        sql = _page(statement.replace("$AFTER", after), limit)
        rows = await read(sql, *args, page.limit + 1)
        return rows[: page.limit], len(rows) > page.limit
    in_rows = "$TOTAL" in statement
    with_total = statement.replace("$TOTAL", total or f"({count})")
    sql = _page(with_total, f"LIMIT ${n + 1} OFFSET ${n + 2}")
    rows = await read(sql, *args, page.limit, min(page.offset, MAX_OFFSET))
    if rows and in_rows:
        return rows, int(rows[0]["total"])
    counted = await read(count, *args)
    return rows, int(counted[0][0] or 0) if counted else 0


def _page(statement: str, limit: str) -> str:
    return statement.replace("$PAGE", limit) if "$PAGE" in statement else f"{statement} {limit}"
