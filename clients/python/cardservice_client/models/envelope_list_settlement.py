from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.settlement import Settlement


T = TypeVar("T", bound="EnvelopeListSettlement")


@_attrs_define
class EnvelopeListSettlement:
    """
    Example:
        {'success': True, 'data': [{'currency': 'EUR', 'date': 'example', 'captures': {'count': 1, 'amount': 'example'},
            'refunds': {'count': 1, 'amount': 'example'}, 'dispute_credits': {'count': 1, 'amount': 'example'},
            'chargebacks': {'count': 1, 'amount': 'example'}, 'representments': {'count': 1, 'amount': 'example'}, 'net':
            'example'}]}

    Attributes:
        data (list[Settlement]):
        success (bool | Unset):  Default: True.
    """

    data: list[Settlement]
    success: bool | Unset = True
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

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
        from ..models.settlement import Settlement  # noqa: PLC0415

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = Settlement.from_dict(data_item_data)

            data.append(data_item)

        success = d.pop("success", UNSET)

        envelope_list_settlement = cls(
            data=data,
            success=success,
        )

        envelope_list_settlement.additional_properties = d
        return envelope_list_settlement

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
