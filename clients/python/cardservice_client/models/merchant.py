from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Merchant")


@_attrs_define
class Merchant:
    """
    Example:
        {'name': 'Ada Lovelace', 'mcc': '5411', 'country': 'DE', 'city': 'Berlin'}

    Attributes:
        name (str):
        mcc (None | str):
        country (None | str):
        city (None | str):
    """

    name: str
    mcc: None | str
    country: None | str
    city: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        mcc: None | str
        mcc = self.mcc

        country: None | str
        country = self.country

        city: None | str
        city = self.city

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "mcc": mcc,
                "country": country,
                "city": city,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        def _parse_mcc(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        mcc = _parse_mcc(d.pop("mcc"))

        def _parse_country(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        country = _parse_country(d.pop("country"))

        def _parse_city(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        city = _parse_city(d.pop("city"))

        merchant = cls(
            name=name,
            mcc=mcc,
            country=country,
            city=city,
        )

        merchant.additional_properties = d
        return merchant

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
