from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="BinLocked")


@_attrs_define
class BinLocked:
    """
    Example:
        {'bin': '424242', 'unknown_numbers': 1, 'until': '2026-03-19T10:15:00Z'}

    Attributes:
        bin (str):
        unknown_numbers (int):
        until (datetime.datetime):
    """

    bin: str
    unknown_numbers: int
    until: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bin = self.bin

        unknown_numbers = self.unknown_numbers

        until = self.until.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bin": bin,
                "unknown_numbers": unknown_numbers,
                "until": until,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bin = d.pop("bin")

        unknown_numbers = d.pop("unknown_numbers")

        until = datetime.datetime.fromisoformat(d.pop("until"))

        bin_locked = cls(
            bin=bin,
            unknown_numbers=unknown_numbers,
            until=until,
        )

        bin_locked.additional_properties = d
        return bin_locked

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
