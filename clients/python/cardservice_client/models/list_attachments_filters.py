from __future__ import annotations

import builtins
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
        type (ListAttachmentsFiltersType | Unset): Only attachments of this type
    """

    type: ListAttachmentsFiltersType | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type: str | Unset = UNSET
        if not isinstance(self.type, Unset):
            type = self.type.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if type is not UNSET:
            field_dict["type"] = type

        return field_dict

    @classmethod
    def from_dict(cls: builtins.type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _type_ = d.pop("type", UNSET)
        type: ListAttachmentsFiltersType | Unset
        if isinstance(_type_, Unset):
            type = UNSET
        else:
            type = ListAttachmentsFiltersType(_type_)

        list_attachments_filters = cls(
            type=type,
        )

        return list_attachments_filters
