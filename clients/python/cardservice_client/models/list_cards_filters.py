from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.list_cards_filters_status import ListCardsFiltersStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="ListCardsFilters")


@_attrs_define
class ListCardsFilters:
    """
    Attributes:
        status (ListCardsFiltersStatus | Unset): Only cards in this status
        account_uuid (str | Unset | UUID): Only this account's cards
        is_favorite (bool | Unset): `true`: only favorites; `false`: only the others
        search (str | Unset): Part of the last four digits, the mask or the description
    """

    status: ListCardsFiltersStatus | Unset = UNSET
    account_uuid: str | Unset | UUID = UNSET
    is_favorite: bool | Unset = UNSET
    search: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        account_uuid: str | Unset
        if isinstance(self.account_uuid, Unset):
            account_uuid = UNSET
        elif isinstance(self.account_uuid, UUID):
            account_uuid = str(self.account_uuid)
        else:
            account_uuid = self.account_uuid

        is_favorite = self.is_favorite

        search = self.search

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if status is not UNSET:
            field_dict["status"] = status
        if account_uuid is not UNSET:
            field_dict["account_uuid"] = account_uuid
        if is_favorite is not UNSET:
            field_dict["is_favorite"] = is_favorite
        if search is not UNSET:
            field_dict["search"] = search

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _status = d.pop("status", UNSET)
        status: ListCardsFiltersStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = ListCardsFiltersStatus(_status)

        def _parse_account_uuid(data: object) -> str | Unset | UUID:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                account_uuid_type_0 = UUID(data)

                return account_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | Unset | UUID, data)

        account_uuid = _parse_account_uuid(d.pop("account_uuid", UNSET))

        is_favorite = d.pop("is_favorite", UNSET)

        search = d.pop("search", UNSET)

        list_cards_filters = cls(
            status=status,
            account_uuid=account_uuid,
            is_favorite=is_favorite,
            search=search,
        )

        return list_cards_filters
