from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReportKeysetMeta")


@_attrs_define
class ReportKeysetMeta:
    """A keyset page (`starting_after`, docs/transactions.md#reading).

    Example:
        {'per_page': 1, 'total': 1, 'next_starting_after': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30'}

    Attributes:
        per_page (int):
        total (int):
        next_starting_after (None | UUID):
    """

    per_page: int
    total: int
    next_starting_after: None | UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        per_page = self.per_page

        total = self.total

        next_starting_after: None | str
        if isinstance(self.next_starting_after, UUID):
            next_starting_after = str(self.next_starting_after)
        else:
            next_starting_after = self.next_starting_after

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "per_page": per_page,
                "total": total,
                "next_starting_after": next_starting_after,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        per_page = d.pop("per_page")

        total = d.pop("total")

        def _parse_next_starting_after(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_starting_after_type_0 = UUID(data)

                return next_starting_after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        next_starting_after = _parse_next_starting_after(d.pop("next_starting_after"))

        report_keyset_meta = cls(
            per_page=per_page,
            total=total,
            next_starting_after=next_starting_after,
        )

        report_keyset_meta.additional_properties = d
        return report_keyset_meta

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
