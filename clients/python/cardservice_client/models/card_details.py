from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CardDetails")


@_attrs_define
class CardDetails:
    """What a holder types into a checkout page; answered once per reveal, `no-store`.

    Example:
        {'pan': 'example', 'cvv2': 'example', 'expiry_month': 12, 'expiry_year': 2029, 'holder_name': 'Ada Lovelace'}

    Attributes:
        pan (str):
        cvv2 (str):
        expiry_month (int):
        expiry_year (int):
        holder_name (None | str):
    """

    pan: str
    cvv2: str
    expiry_month: int
    expiry_year: int
    holder_name: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        pan = self.pan

        cvv2 = self.cvv2

        expiry_month = self.expiry_month

        expiry_year = self.expiry_year

        holder_name: None | str
        holder_name = self.holder_name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "pan": pan,
                "cvv2": cvv2,
                "expiry_month": expiry_month,
                "expiry_year": expiry_year,
                "holder_name": holder_name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        pan = d.pop("pan")

        cvv2 = d.pop("cvv2")

        expiry_month = d.pop("expiry_month")

        expiry_year = d.pop("expiry_year")

        def _parse_holder_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        holder_name = _parse_holder_name(d.pop("holder_name"))

        card_details = cls(
            pan=pan,
            cvv2=cvv2,
            expiry_month=expiry_month,
            expiry_year=expiry_year,
            holder_name=holder_name,
        )

        card_details.additional_properties = d
        return card_details

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
