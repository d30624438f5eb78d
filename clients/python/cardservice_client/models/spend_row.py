from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SpendRow")


@_attrs_define
class SpendRow:
    """One group's spend (`GET /user/spend`): approved card purchases and ATM withdrawals
    less refunds.

        Example:
            {'key': 'example', 'name': 'Ada Lovelace', 'count': 1, 'amount': 12.5, 'currency': 'EUR'}

        Attributes:
            key (None | str):
            name (str):
            count (int):
            amount (Decimal):
            currency (str):
    """

    key: None | str
    name: str
    count: int
    amount: Decimal
    currency: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        key: None | str
        key = self.key

        name = self.name

        count = self.count

        amount = self.amount

        currency = self.currency

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "key": key,
                "name": name,
                "count": count,
                "amount": amount,
                "currency": currency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        key = _parse_key(d.pop("key"))

        name = d.pop("name")

        count = d.pop("count")

        amount = d.pop("amount")

        currency = d.pop("currency")

        spend_row = cls(
            key=key,
            name=name,
            count=count,
            amount=amount,
            currency=currency,
        )

        spend_row.additional_properties = d
        return spend_row

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
