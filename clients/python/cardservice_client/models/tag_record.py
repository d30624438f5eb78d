from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TagRecord")


@_attrs_define
class TagRecord:
    """
    Example:
        {'slug': 'example', 'name': 'Ada Lovelace', 'category': 'example', 'transactions_count': 1, 'hold_days': 1}

    Attributes:
        slug (str):
        name (str):
        category (str):
        transactions_count (int):
        hold_days (int): Days a pending authorization with this tag is held before it expires.
    """

    slug: str
    name: str
    category: str
    transactions_count: int
    hold_days: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        name = self.name

        category = self.category

        transactions_count = self.transactions_count

        hold_days = self.hold_days

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "slug": slug,
                "name": name,
                "category": category,
                "transactions_count": transactions_count,
                "hold_days": hold_days,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        slug = d.pop("slug")

        name = d.pop("name")

        category = d.pop("category")

        transactions_count = d.pop("transactions_count")

        hold_days = d.pop("hold_days")

        tag_record = cls(
            slug=slug,
            name=name,
            category=category,
            transactions_count=transactions_count,
            hold_days=hold_days,
        )

        tag_record.additional_properties = d
        return tag_record

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
