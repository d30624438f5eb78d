from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PaymentCurrencyRecord")


@_attrs_define
class PaymentCurrencyRecord:
    """
    Example:
        {'code': '482913', 'name': 'Ada Lovelace', 'network': 'example', 'decimals': 1, 'min_amount': 12.5,
            'max_amount': 12.5, 'fee_percent': 12.5}

    Attributes:
        code (str):
        name (str):
        network (None | str):
        decimals (int):
        min_amount (Decimal):
        max_amount (Decimal):
        fee_percent (Decimal):
    """

    code: str
    name: str
    network: None | str
    decimals: int
    min_amount: Decimal
    max_amount: Decimal
    fee_percent: Decimal
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        name = self.name

        network: None | str
        network = self.network

        decimals = self.decimals

        min_amount = self.min_amount

        max_amount = self.max_amount

        fee_percent = self.fee_percent

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "name": name,
                "network": network,
                "decimals": decimals,
                "min_amount": min_amount,
                "max_amount": max_amount,
                "fee_percent": fee_percent,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        code = d.pop("code")

        name = d.pop("name")

        def _parse_network(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        network = _parse_network(d.pop("network"))

        decimals = d.pop("decimals")

        min_amount = d.pop("min_amount")

        max_amount = d.pop("max_amount")

        fee_percent = d.pop("fee_percent")

        payment_currency_record = cls(
            code=code,
            name=name,
            network=network,
            decimals=decimals,
            min_amount=min_amount,
            max_amount=max_amount,
            fee_percent=fee_percent,
        )

        payment_currency_record.additional_properties = d
        return payment_currency_record

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
