from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="SortRequest")


@_attrs_define
class SortRequest:
    """
    Example:
        {'card_uuids': ['0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30']}

    Attributes:
        card_uuids (list[str]):
    """

    card_uuids: list[str]

    def to_dict(self) -> dict[str, Any]:
        card_uuids = self.card_uuids

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "card_uuids": card_uuids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        card_uuids = cast(list[str], d.pop("card_uuids"))

        sort_request = cls(
            card_uuids=card_uuids,
        )

        return sort_request
