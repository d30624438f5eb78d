from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.list_attachments_filters_type import ListAttachmentsFiltersType
from ..types import UNSET, Unset

T = TypeVar("T", bound="ListAttachmentsFilters")


@_attrs_define
class ListAttachmentsFilters:
    """
    Attributes:
        type_ (ListAttachmentsFiltersType | Unset):
    """

    type_: ListAttachmentsFiltersType | Unset = UNSET

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
        type_: ListAttachmentsFiltersType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = ListAttachmentsFiltersType(_type_)

        list_attachments_filters = cls(
            type_=type_,
        )

        return list_attachments_filters
