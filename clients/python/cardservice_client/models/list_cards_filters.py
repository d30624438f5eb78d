from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..models.list_cards_filters_status import ListCardsFiltersStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="ListCardsFilters")


@_attrs_define
class ListCardsFilters:
    """
    Attributes:
        status (ListCardsFiltersStatus | Unset):
        account_uuid (UUID | Unset):
        is_favorite (bool | Unset):
        search (str | Unset):
    """

    status: ListCardsFiltersStatus | Unset = UNSET
    account_uuid: UUID | Unset = UNSET
    is_favorite: bool | Unset = UNSET
    search: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        account_uuid: str | Unset = UNSET
        if not isinstance(self.account_uuid, Unset):
            account_uuid = str(self.account_uuid)

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

        _account_uuid = d.pop("account_uuid", UNSET)
        account_uuid: UUID | Unset
        if isinstance(_account_uuid, Unset):
            account_uuid = UNSET
        else:
            account_uuid = UUID(_account_uuid)

        is_favorite = d.pop("is_favorite", UNSET)

        search = d.pop("search", UNSET)

        list_cards_filters = cls(
            status=status,
            account_uuid=account_uuid,
            is_favorite=is_favorite,
            search=search,
        )

        return list_cards_filters
