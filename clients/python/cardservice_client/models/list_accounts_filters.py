from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.list_accounts_filters_status import ListAccountsFiltersStatus
from ..models.list_accounts_filters_type import ListAccountsFiltersType
from ..types import UNSET, Unset

T = TypeVar("T", bound="ListAccountsFilters")


@_attrs_define
class ListAccountsFilters:
    """
    Attributes:
        status (ListAccountsFiltersStatus | Unset):
        type_ (ListAccountsFiltersType | Unset):
        currency (str | Unset):
        search (str | Unset):
    """

    status: ListAccountsFiltersStatus | Unset = UNSET
    type_: ListAccountsFiltersType | Unset = UNSET
    currency: str | Unset = UNSET
    search: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_.value

        currency = self.currency

        search = self.search

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if status is not UNSET:
            field_dict["status"] = status
        if type_ is not UNSET:
            field_dict["type"] = type_
        if currency is not UNSET:
            field_dict["currency"] = currency
        if search is not UNSET:
            field_dict["search"] = search

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _status = d.pop("status", UNSET)
        status: ListAccountsFiltersStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = ListAccountsFiltersStatus(_status)

        _type_ = d.pop("type", UNSET)
        type_: ListAccountsFiltersType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = ListAccountsFiltersType(_type_)

        currency = d.pop("currency", UNSET)

        search = d.pop("search", UNSET)

        list_accounts_filters = cls(
            status=status,
            type_=type_,
            currency=currency,
            search=search,
        )

        return list_accounts_filters
