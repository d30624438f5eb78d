from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.list_events_filters_type import ListEventsFiltersType
from ..types import UNSET, Unset

T = TypeVar("T", bound="ListEventsFilters")


@_attrs_define
class ListEventsFilters:
    """
    Attributes:
        type_ (ListEventsFiltersType | Unset):
    """

    type_: ListEventsFiltersType | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _type_ = d.pop("type", UNSET)
        type_: ListEventsFiltersType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = ListEventsFiltersType(_type_)

        list_events_filters = cls(
            type_=type_,
        )

        return list_events_filters
