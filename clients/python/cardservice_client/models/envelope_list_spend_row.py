from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.spend_row import SpendRow


T = TypeVar("T", bound="EnvelopeListSpendRow")


@_attrs_define
class EnvelopeListSpendRow:
    """
    Example:
        {'success': True, 'data': [{'key': 'example', 'name': 'Ada Lovelace', 'count': 1, 'amount': 12.5, 'currency':
            'EUR'}]}

    Attributes:
        data (list[SpendRow]):
        success (bool | Unset):  Default: True.
    """

    data: list[SpendRow]
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
        from ..models.spend_row import SpendRow  # noqa: PLC0415

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = SpendRow.from_dict(data_item_data)

            data.append(data_item)

        success = d.pop("success", UNSET)

        envelope_list_spend_row = cls(
            data=data,
            success=success,
        )

        envelope_list_spend_row.additional_properties = d
        return envelope_list_spend_row

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
