from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="FavoriteRequest")


@_attrs_define
class FavoriteRequest:
    """
    Example:
        {'card_uuids': ['0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30'], 'is_favorite': True}

    Attributes:
        card_uuids (list[str]):
        is_favorite (bool):
    """

    card_uuids: list[str]
    is_favorite: bool

    def to_dict(self) -> dict[str, Any]:
        card_uuids = self.card_uuids

        is_favorite = self.is_favorite

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "card_uuids": card_uuids,
                "is_favorite": is_favorite,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        card_uuids = cast(list[str], d.pop("card_uuids"))

        is_favorite = d.pop("is_favorite")

        favorite_request = cls(
            card_uuids=card_uuids,
            is_favorite=is_favorite,
        )

        return favorite_request
