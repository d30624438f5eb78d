from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.card_testing import CardTesting


T = TypeVar("T", bound="EnvelopeCardTesting")


@_attrs_define
class EnvelopeCardTesting:
    """
    Example:
        {'success': True, 'data': {'merchants_blocked': [{'acquirer_id': 'example', 'merchant_id': 'example', 'until':
            '2026-03-19T10:15:00Z'}], 'bins_locked': [{'bin': '424242', 'unknown_numbers': 1, 'until':
            '2026-03-19T10:15:00Z'}]}}

    Attributes:
        data (CardTesting):  Example: {'merchants_blocked': [{'acquirer_id': 'example', 'merchant_id': 'example',
            'until': '2026-03-19T10:15:00Z'}], 'bins_locked': [{'bin': '424242', 'unknown_numbers': 1, 'until':
            '2026-03-19T10:15:00Z'}]}.
        success (bool | Unset):  Default: True.
    """

    data: CardTesting
    success: bool | Unset = True
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = self.data.to_dict()

        success = self.success

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
            }
        )
        if success is not UNSET:
            field_dict["success"] = success

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.card_testing import CardTesting  # noqa: PLC0415

        d = dict(src_dict)
        data = CardTesting.from_dict(d.pop("data"))

        success = d.pop("success", UNSET)

        envelope_card_testing = cls(
            data=data,
            success=success,
        )

        envelope_card_testing.additional_properties = d
        return envelope_card_testing

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
