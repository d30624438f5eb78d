from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.blocked_tag_record_restriction import BlockedTagRecordRestriction

T = TypeVar("T", bound="BlockedTagRecord")


@_attrs_define
class BlockedTagRecord:
    """
    Example:
        {'slug': 'example', 'name': 'Ada Lovelace', 'restriction': 'blocked', 'reason': 'example'}

    Attributes:
        slug (str):
        name (str):
        restriction (BlockedTagRecordRestriction):
        reason (str):
    """

    slug: str
    name: str
    restriction: BlockedTagRecordRestriction
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        name = self.name

        restriction = self.restriction.value

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "slug": slug,
                "name": name,
                "restriction": restriction,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        slug = d.pop("slug")

        name = d.pop("name")

        restriction = BlockedTagRecordRestriction(d.pop("restriction"))

        reason = d.pop("reason")

        blocked_tag_record = cls(
            slug=slug,
            name=name,
            restriction=restriction,
            reason=reason,
        )

        blocked_tag_record.additional_properties = d
        return blocked_tag_record

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
