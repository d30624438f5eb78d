from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MerchantBlocked")


@_attrs_define
class MerchantBlocked:
    """
    Example:
        {'acquirer_id': 'example', 'merchant_id': 'example', 'until': '2026-03-19T10:15:00Z'}

    Attributes:
        acquirer_id (str):
        merchant_id (str):
        until (datetime.datetime):
    """

    acquirer_id: str
    merchant_id: str
    until: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        acquirer_id = self.acquirer_id

        merchant_id = self.merchant_id

        until = self.until.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "acquirer_id": acquirer_id,
                "merchant_id": merchant_id,
                "until": until,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        acquirer_id = d.pop("acquirer_id")

        merchant_id = d.pop("merchant_id")

        until = datetime.datetime.fromisoformat(d.pop("until"))

        merchant_blocked = cls(
            acquirer_id=acquirer_id,
            merchant_id=merchant_id,
            until=until,
        )

        merchant_blocked.additional_properties = d
        return merchant_blocked

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
