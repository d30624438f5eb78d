from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="SortRequest")


@_attrs_define
class SortRequest:
    """
    Example:
        {'card_uuids': ['0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30']}

    Attributes:
        card_uuids (list[str | UUID]): 1..500 distinct uuids of the caller's cards, in the order they should come first.
    """

    card_uuids: list[str | UUID]

    def to_dict(self) -> dict[str, Any]:
        card_uuids = []
        for card_uuids_item_data in self.card_uuids:
            card_uuids_item: str
            if isinstance(card_uuids_item_data, UUID):
                card_uuids_item = str(card_uuids_item_data)
            else:
                card_uuids_item = card_uuids_item_data
            card_uuids.append(card_uuids_item)

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
        card_uuids = []
        _card_uuids = d.pop("card_uuids")
        for card_uuids_item_data in _card_uuids:

            def _parse_card_uuids_item(data: object) -> str | UUID:
                try:
                    if not isinstance(data, str):
                        raise TypeError()
                    card_uuids_item_type_0 = UUID(data)

                    return card_uuids_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                return cast(str | UUID, data)

            card_uuids_item = _parse_card_uuids_item(card_uuids_item_data)

            card_uuids.append(card_uuids_item)

        sort_request = cls(
            card_uuids=card_uuids,
        )

        return sort_request
