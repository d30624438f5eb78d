from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ListOperatorFxRatesFilters")


@_attrs_define
class ListOperatorFxRatesFilters:
    """
    Attributes:
        base (str | Unset): Only rates from this currency
        quote (str | Unset): Only rates to this currency
    """

    base: str | Unset = UNSET
    quote: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        base = self.base

        quote = self.quote

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if base is not UNSET:
            field_dict["base"] = base
        if quote is not UNSET:
            field_dict["quote"] = quote

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        base = d.pop("base", UNSET)

        quote = d.pop("quote", UNSET)

        list_operator_fx_rates_filters = cls(
            base=base,
            quote=quote,
        )

        return list_operator_fx_rates_filters
