from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CardCounts")


@_attrs_define
class CardCounts:
    """
    Example:
        {'total': 1, 'active': 1, 'frozen': 1, 'closed': 1, 'favorite': 1}

    Attributes:
        total (int):
        active (int):
        frozen (int):
        closed (int):
        favorite (int):
    """

    total: int
    active: int
    frozen: int
    closed: int
    favorite: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        total = self.total

        active = self.active

        frozen = self.frozen

        closed = self.closed

        favorite = self.favorite

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "total": total,
                "active": active,
                "frozen": frozen,
                "closed": closed,
                "favorite": favorite,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        total = d.pop("total")

        active = d.pop("active")

        frozen = d.pop("frozen")

        closed = d.pop("closed")

        favorite = d.pop("favorite")

        card_counts = cls(
            total=total,
            active=active,
            frozen=frozen,
            closed=closed,
            favorite=favorite,
        )

        card_counts.additional_properties = d
        return card_counts

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
