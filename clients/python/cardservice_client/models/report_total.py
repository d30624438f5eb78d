from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReportTotal")


@_attrs_define
class ReportTotal:
    """What the matching transactions moved in one currency: debits (amounts out and every
    fee charged) and credits (docs/transactions.md#reading).

        Example:
            {'currency': 'EUR', 'debits': 12.5, 'credits': 12.5}

        Attributes:
            currency (str):
            debits (Decimal):
            credits_ (Decimal):
    """

    currency: str
    debits: Decimal
    credits_: Decimal
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        currency = self.currency

        debits = self.debits

        credits_ = self.credits_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "currency": currency,
                "debits": debits,
                "credits": credits_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        currency = d.pop("currency")

        debits = d.pop("debits")

        credits_ = d.pop("credits")

        report_total = cls(
            currency=currency,
            debits=debits,
            credits_=credits_,
        )

        report_total.additional_properties = d
        return report_total

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
