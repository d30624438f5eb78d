from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.card_details import CardDetails


T = TypeVar("T", bound="EnvelopeCardDetails")


@_attrs_define
class EnvelopeCardDetails:
    """
    Example:
        {'success': True, 'data': {'pan': 'example', 'cvv2': 'example', 'expiry_month': 12, 'expiry_year': 2029,
            'holder_name': 'Ada Lovelace'}}

    Attributes:
        data (CardDetails): What a holder types into a checkout page; answered once per reveal, `no-store`. Example:
            {'pan': 'example', 'cvv2': 'example', 'expiry_month': 12, 'expiry_year': 2029, 'holder_name': 'Ada Lovelace'}.
        success (bool | Unset):  Default: True.
    """

    data: CardDetails
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
        from ..models.card_details import CardDetails  # noqa: PLC0415

        d = dict(src_dict)
        data = CardDetails.from_dict(d.pop("data"))

        success = d.pop("success", UNSET)

        envelope_card_details = cls(
            data=data,
            success=success,
        )

        envelope_card_details.additional_properties = d
        return envelope_card_details

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
