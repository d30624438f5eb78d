from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ActivateCardRequest")


@_attrs_define
class ActivateCardRequest:
    """`POST /card/{cardUuid}/activate` (docs/cards.md#activation).

    Example:
        {'last4': '4242'}

    Attributes:
        last4 (str): The last four digits of the card's number, as printed on it.
    """

    last4: str

    def to_dict(self) -> dict[str, Any]:
        last4 = self.last4

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "last4": last4,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        last4 = d.pop("last4")

        activate_card_request = cls(
            last4=last4,
        )

        return activate_card_request
