from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Spend")


@_attrs_define
class Spend:
    """
    Example:
        {'currency': 'EUR', 'today': 12.5, 'last_7_days': 12.5, 'this_month': 12.5}

    Attributes:
        currency (str):
        today (Decimal):
        last_7_days (Decimal):
        this_month (Decimal):
    """

    currency: str
    today: Decimal
    last_7_days: Decimal
    this_month: Decimal
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        currency = self.currency

        today = self.today

        last_7_days = self.last_7_days

        this_month = self.this_month

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "currency": currency,
                "today": today,
                "last_7_days": last_7_days,
                "this_month": this_month,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        currency = d.pop("currency")

        today = d.pop("today")

        last_7_days = d.pop("last_7_days")

        this_month = d.pop("this_month")

        spend = cls(
            currency=currency,
            today=today,
            last_7_days=last_7_days,
            this_month=this_month,
        )

        spend.additional_properties = d
        return spend

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
