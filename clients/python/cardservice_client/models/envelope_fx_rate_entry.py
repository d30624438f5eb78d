from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.fx_rate_entry import FxRateEntry


T = TypeVar("T", bound="EnvelopeFxRateEntry")


@_attrs_define
class EnvelopeFxRateEntry:
    """
    Example:
        {'success': True, 'data': {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'base': 'example', 'quote':
            'example', 'rate': 12.5, 'effective_at': '2026-03-19T10:15:00Z', 'created_at': '2026-03-19T10:15:00Z'}}

    Attributes:
        data (FxRateEntry): A rate the operator set, as `GET /operator/fx-rates` lists them. Example: {'uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'base': 'example', 'quote': 'example', 'rate': 12.5, 'effective_at':
            '2026-03-19T10:15:00Z', 'created_at': '2026-03-19T10:15:00Z'}.
        success (bool | Unset):  Default: True.
    """

    data: FxRateEntry
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
        from ..models.fx_rate_entry import FxRateEntry  # noqa: PLC0415

        d = dict(src_dict)
        data = FxRateEntry.from_dict(d.pop("data"))

        success = d.pop("success", UNSET)

        envelope_fx_rate_entry = cls(
            data=data,
            success=success,
        )

        envelope_fx_rate_entry.additional_properties = d
        return envelope_fx_rate_entry

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
