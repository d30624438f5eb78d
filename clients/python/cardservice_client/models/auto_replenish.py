from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AutoReplenish")


@_attrs_define
class AutoReplenish:
    """
    Example:
        {'enabled': True, 'amount': 12.5, 'min_balance': 12.5}

    Attributes:
        enabled (bool):
        amount (Decimal | None):
        min_balance (Decimal | None):
    """

    enabled: bool
    amount: Decimal | None
    min_balance: Decimal | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        amount: Decimal | None
        amount = self.amount

        min_balance: Decimal | None
        min_balance = self.min_balance

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "enabled": enabled,
                "amount": amount,
                "min_balance": min_balance,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        enabled = d.pop("enabled")

        def _parse_amount(data: object) -> Decimal | None:
            if data is None:
                return data
            return cast(Decimal | None, data)

        amount = _parse_amount(d.pop("amount"))

        def _parse_min_balance(data: object) -> Decimal | None:
            if data is None:
                return data
            return cast(Decimal | None, data)

        min_balance = _parse_min_balance(d.pop("min_balance"))

        auto_replenish = cls(
            enabled=enabled,
            amount=amount,
            min_balance=min_balance,
        )

        auto_replenish.additional_properties = d
        return auto_replenish

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
