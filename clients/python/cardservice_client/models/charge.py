from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Charge")


@_attrs_define
class Charge:
    """
    Example:
        {'total': 12.5, 'fees': 12.5, 'start_balance_total': 12.5, 'currency': 'EUR'}

    Attributes:
        total (Decimal):
        fees (Decimal):
        start_balance_total (Decimal):
        currency (str):
    """

    total: Decimal
    fees: Decimal
    start_balance_total: Decimal
    currency: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        total = self.total

        fees = self.fees

        start_balance_total = self.start_balance_total

        currency = self.currency

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "total": total,
                "fees": fees,
                "start_balance_total": start_balance_total,
                "currency": currency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        total = d.pop("total")

        fees = d.pop("fees")

        start_balance_total = d.pop("start_balance_total")

        currency = d.pop("currency")

        charge = cls(
            total=total,
            fees=fees,
            start_balance_total=start_balance_total,
            currency=currency,
        )

        charge.additional_properties = d
        return charge

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
