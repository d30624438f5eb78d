from __future__ import annotations

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
        {'base': 'example', 'quote': 'example', 'rate': 12.5, 'date': 'example'}

    Attributes:
        base (str):
        quote (str):
        rate (Decimal):
        date (str): The day the rate was set (ISO date).
    """

    base: str
    quote: str
    rate: Decimal
    date: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        base = self.base

        quote = self.quote

        rate = self.rate

        date = self.date

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "base": base,
                "quote": quote,
                "rate": rate,
                "date": date,
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

        fx_rate_record = cls(
            base=base,
            quote=quote,
            rate=rate,
            date=date,
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
