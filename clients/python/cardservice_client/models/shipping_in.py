from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ShippingIn")


@_attrs_define
class ShippingIn:
    """Where a physical card is sent (docs/cards.md#physical-cards).

    Example:
        {'name': 'Ada Lovelace', 'line1': 'Unter den Linden 1', 'line2': 'example', 'city': 'Berlin', 'postal_code':
            '10117', 'country': 'DE'}

    Attributes:
        name (str): The addressee, 1..120 characters.
        line1 (str): Street and number, 1..200 characters.
        city (str): 1..120 characters.
        postal_code (str): 1..20 characters.
        country (str): ISO 3166-1 alpha-2, upper case (`DE`); a code ISO 3166-1 does not assign → 422.
        line2 (None | str | Unset): Apartment, floor, building, 1..200 characters.
    """

    name: str
    line1: str
    city: str
    postal_code: str
    country: str
    line2: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        line1 = self.line1

        city = self.city

        postal_code = self.postal_code

        country = self.country

        line2: None | str | Unset
        if isinstance(self.line2, Unset):
            line2 = UNSET
        else:
            line2 = self.line2

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "line1": line1,
                "city": city,
                "postal_code": postal_code,
                "country": country,
            }
        )
        if line2 is not UNSET:
            field_dict["line2"] = line2

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        line1 = d.pop("line1")

        city = d.pop("city")

        postal_code = d.pop("postal_code")

        country = d.pop("country")

        def _parse_line2(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        line2 = _parse_line2(d.pop("line2", UNSET))

        shipping_in = cls(
            name=name,
            line1=line1,
            city=city,
            postal_code=postal_code,
            country=country,
            line2=line2,
        )

        return shipping_in
