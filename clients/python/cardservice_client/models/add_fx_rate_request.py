from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AddFxRateRequest")


@_attrs_define
class AddFxRateRequest:
    """
    Example:
        {'base': 'JPY', 'quote': 'USD', 'rate': 0.0067, 'effective_at': '2026-12-01T00:00:00Z'}

    Attributes:
        base (str): The merchant's currency (ISO 4217, upper case).
        quote (str): The card's currency: one of the service's account currencies; not `base`.
        rate (Decimal): 1 `base` = `rate` `quote`; > 0, at most 10 decimals.
        effective_at (datetime.datetime): From when it applies (ISO 8601 with an offset); in the future, the current
            rate stays
            until then. Not before the pair's last authorization (409 `rate_predates_authorization`):
            history is not rewritten.
    """

    base: str
    quote: str
    rate: Decimal
    effective_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        base = self.base

        quote = self.quote

        rate = self.rate

        effective_at = self.effective_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "base": base,
                "quote": quote,
                "rate": rate,
                "effective_at": effective_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        base = d.pop("base")

        quote = d.pop("quote")

        rate = d.pop("rate")

        effective_at = datetime.datetime.fromisoformat(d.pop("effective_at"))

        add_fx_rate_request = cls(
            base=base,
            quote=quote,
            rate=rate,
            effective_at=effective_at,
        )

        return add_fx_rate_request
