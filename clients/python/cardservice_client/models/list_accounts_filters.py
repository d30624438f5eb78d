from __future__ import annotations

import builtins
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
        status (ListAccountsFiltersStatus | Unset): Only accounts in this status
        type (ListAccountsFiltersType | Unset): Only accounts of this type
        currency (str | Unset): Only accounts in this currency (ISO 4217, upper case, e.g. `USD`)
        search (str | Unset): Part of the account's name, any case
    """

    status: ListAccountsFiltersStatus | Unset = UNSET
    type: ListAccountsFiltersType | Unset = UNSET
    currency: str | Unset = UNSET
    search: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        type: str | Unset = UNSET
        if not isinstance(self.type, Unset):
            type = self.type.value

        currency = self.currency

        search = self.search

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if status is not UNSET:
            field_dict["status"] = status
        if type is not UNSET:
            field_dict["type"] = type
        if currency is not UNSET:
            field_dict["currency"] = currency
        if search is not UNSET:
            field_dict["search"] = search

        return field_dict

    @classmethod
    def from_dict(cls: builtins.type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _status = d.pop("status", UNSET)
        status: ListAccountsFiltersStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = ListAccountsFiltersStatus(_status)

        _type_ = d.pop("type", UNSET)
        type: ListAccountsFiltersType | Unset
        if isinstance(_type_, Unset):
            type = UNSET
        else:
            type = ListAccountsFiltersType(_type_)

        currency = d.pop("currency", UNSET)

        search = d.pop("search", UNSET)

        list_accounts_filters = cls(
            status=status,
            type=type,
            currency=currency,
            search=search,
        )

        return list_accounts_filters
