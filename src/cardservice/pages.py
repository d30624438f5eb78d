"""Page-number pagination (API.md §1.2): `page` ≥ 1, `per_page` within the list's bounds.
The query parameters are read at the edge (`web.StandardPage`, `web.CardPage`)."""

from __future__ import annotations

from dataclasses import dataclass

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
