from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ShippingAddress")


@_attrs_define
class ShippingAddress:
    """
    Example:
        {'name': 'Ada Lovelace', 'line1': 'Unter den Linden 1', 'line2': 'example', 'city': 'Berlin', 'postal_code':
            '10117', 'country': 'DE'}

    Attributes:
        name (str):
        line1 (str):
        line2 (None | str):
        city (str):
        postal_code (str):
        country (str):
    """

    name: str
    line1: str
    line2: None | str
    city: str
    postal_code: str
    country: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        line1 = self.line1

        line2: None | str
        line2 = self.line2

        city = self.city

        postal_code = self.postal_code

        country = self.country

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "line1": line1,
                "line2": line2,
                "city": city,
                "postal_code": postal_code,
                "country": country,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        line1 = d.pop("line1")

        def _parse_line2(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        line2 = _parse_line2(d.pop("line2"))

        city = d.pop("city")

        postal_code = d.pop("postal_code")

        country = d.pop("country")

        shipping_address = cls(
            name=name,
            line1=line1,
            line2=line2,
            city=city,
            postal_code=postal_code,
            country=country,
        )

        shipping_address.additional_properties = d
        return shipping_address

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
