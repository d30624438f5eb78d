"""Page-number pagination (API.md §1.2): `page` ≥ 1, `per_page` within the list's bounds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Query

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


async def standard_page(
    page: Annotated[int, Query(ge=1, le=MAX_PAGE, description="Page number, from 1")] = 1,
    per_page: Annotated[int, Query(ge=1, le=100, description="Rows per page, 1..100")] = 20,
) -> Page:
    """`page` (≥ 1, default 1) and `per_page` (1..100, default 20)."""
    return Page(number=page, size=per_page)


async def card_page(
    page: Annotated[int, Query(ge=1, le=MAX_PAGE, description="Page number, from 1")] = 1,
    per_page: Annotated[int, Query(ge=1, le=500, description="Rows per page, 1..500")] = 100,
) -> Page:
    """`GET /card` pages: `per_page` up to 500, default 100."""
    return Page(number=page, size=per_page)


StandardPage = Annotated[Page, Depends(standard_page)]
CardPage = Annotated[Page, Depends(card_page)]
