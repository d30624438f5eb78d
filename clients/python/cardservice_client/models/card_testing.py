from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.bin_locked import BinLocked
    from ..models.merchant_blocked import MerchantBlocked


T = TypeVar("T", bound="CardTesting")


@_attrs_define
class CardTesting:
    """
    Example:
        {'merchants_blocked': [{'acquirer_id': 'example', 'merchant_id': 'example', 'until': '2026-03-19T10:15:00Z'}],
            'bins_locked': [{'bin': '424242', 'unknown_numbers': 1, 'until': '2026-03-19T10:15:00Z'}]}

    Attributes:
        merchants_blocked (list[MerchantBlocked]):
        bins_locked (list[BinLocked]):
    """

    merchants_blocked: list[MerchantBlocked]
    bins_locked: list[BinLocked]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        merchants_blocked = []
        for merchants_blocked_item_data in self.merchants_blocked:
            merchants_blocked_item = merchants_blocked_item_data.to_dict()
            merchants_blocked.append(merchants_blocked_item)

        bins_locked = []
        for bins_locked_item_data in self.bins_locked:
            bins_locked_item = bins_locked_item_data.to_dict()
            bins_locked.append(bins_locked_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "merchants_blocked": merchants_blocked,
                "bins_locked": bins_locked,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bin_locked import BinLocked  # noqa: PLC0415
        from ..models.merchant_blocked import MerchantBlocked  # noqa: PLC0415

        d = dict(src_dict)
        merchants_blocked = []
        _merchants_blocked = d.pop("merchants_blocked")
        for merchants_blocked_item_data in _merchants_blocked:
            merchants_blocked_item = MerchantBlocked.from_dict(merchants_blocked_item_data)

            merchants_blocked.append(merchants_blocked_item)

        bins_locked = []
        _bins_locked = d.pop("bins_locked")
        for bins_locked_item_data in _bins_locked:
            bins_locked_item = BinLocked.from_dict(bins_locked_item_data)

            bins_locked.append(bins_locked_item)

        card_testing = cls(
            merchants_blocked=merchants_blocked,
            bins_locked=bins_locked,
        )

        card_testing.additional_properties = d
        return card_testing

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
