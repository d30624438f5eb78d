from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Presentments")


@_attrs_define
class Presentments:
    """
    Example:
        {'matched': 1, 'duplicates': 1, 'force_posted': 1}

    Attributes:
        matched (int): Purchase presentments that found their authorization and moved money (captures, and amount
            differences).
        duplicates (int): Found captured already at the same amount.
        force_posted (int): Booked as new purchases captured at once.
    """

    matched: int
    duplicates: int
    force_posted: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        matched = self.matched

        duplicates = self.duplicates

        force_posted = self.force_posted

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "matched": matched,
                "duplicates": duplicates,
                "force_posted": force_posted,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        matched = d.pop("matched")

        duplicates = d.pop("duplicates")

        force_posted = d.pop("force_posted")

        presentments = cls(
            matched=matched,
            duplicates=duplicates,
            force_posted=force_posted,
        )

        presentments.additional_properties = d
        return presentments

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
