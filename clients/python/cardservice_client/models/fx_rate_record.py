from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="FxRateRecord")


@_attrs_define
class FxRateRecord:
    """1 `base` = `rate` `quote`: a merchant charging in `base` on a card holding `quote`.

    Example:
        {'base': 'example', 'quote': 'example', 'rate': 12.5, 'date': 'example', 'effective_at': '2026-03-19T10:15:00Z'}

    Attributes:
        base (str):
        quote (str):
        rate (Decimal):
        date (str): The day the rate took effect (ISO date, UTC).
        effective_at (datetime.datetime): The instant the rate took effect; it applies until the pair's next rate.
    """

    base: str
    quote: str
    rate: Decimal
    date: str
    effective_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        base = self.base

        quote = self.quote

        rate = self.rate

        date = self.date

        effective_at = self.effective_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "base": base,
                "quote": quote,
                "rate": rate,
                "date": date,
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

        date = d.pop("date")

        effective_at = datetime.datetime.fromisoformat(d.pop("effective_at"))

        fx_rate_record = cls(
            base=base,
            quote=quote,
            rate=rate,
            date=date,
            effective_at=effective_at,
        )

        fx_rate_record.additional_properties = d
        return fx_rate_record

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
