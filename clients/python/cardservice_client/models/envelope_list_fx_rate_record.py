from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.fx_rate_record import FxRateRecord


T = TypeVar("T", bound="EnvelopeListFxRateRecord")


@_attrs_define
class EnvelopeListFxRateRecord:
    """
    Example:
        {'success': True, 'data': [{'base': 'example', 'quote': 'example', 'rate': 12.5, 'date': 'example',
            'effective_at': '2026-03-19T10:15:00Z'}]}

    Attributes:
        data (list[FxRateRecord]):
        success (bool | Unset):  Default: True.
    """

    data: list[FxRateRecord]
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
        from ..models.fx_rate_record import FxRateRecord  # noqa: PLC0415

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = FxRateRecord.from_dict(data_item_data)

            data.append(data_item)

        success = d.pop("success", UNSET)

        envelope_list_fx_rate_record = cls(
            data=data,
            success=success,
        )

        envelope_list_fx_rate_record.additional_properties = d
        return envelope_list_fx_rate_record

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
