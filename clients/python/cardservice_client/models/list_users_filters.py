from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.list_users_filters_status import ListUsersFiltersStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="ListUsersFilters")


@_attrs_define
class ListUsersFilters:
    """
    Attributes:
        email (str | Unset): The user with this email (case and surrounding spaces ignored)
        status (ListUsersFiltersStatus | Unset): Only users in this status
    """

    email: str | Unset = UNSET
    status: ListUsersFiltersStatus | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if email is not UNSET:
            field_dict["email"] = email
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email = d.pop("email", UNSET)

        _status = d.pop("status", UNSET)
        status: ListUsersFiltersStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = ListUsersFiltersStatus(_status)

        list_users_filters = cls(
            email=email,
            status=status,
        )

        return list_users_filters
