from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.list_operator_cards_filters_status import ListOperatorCardsFiltersStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="ListOperatorCardsFilters")


@_attrs_define
class ListOperatorCardsFilters:
    """
    Attributes:
        user_uuid (str | Unset | UUID): Only this user's
        status (ListOperatorCardsFiltersStatus | Unset): Only cards in this status
        program_uuid (str | Unset | UUID): Only the cards of this program's users
        search (str | Unset): Part of the last four digits, the mask or the description
    """

    user_uuid: str | Unset | UUID = UNSET
    status: ListOperatorCardsFiltersStatus | Unset = UNSET
    program_uuid: str | Unset | UUID = UNSET
    search: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        user_uuid: str | Unset
        if isinstance(self.user_uuid, Unset):
            user_uuid = UNSET
        elif isinstance(self.user_uuid, UUID):
            user_uuid = str(self.user_uuid)
        else:
            user_uuid = self.user_uuid

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        program_uuid: str | Unset
        if isinstance(self.program_uuid, Unset):
            program_uuid = UNSET
        elif isinstance(self.program_uuid, UUID):
            program_uuid = str(self.program_uuid)
        else:
            program_uuid = self.program_uuid

        search = self.search

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if user_uuid is not UNSET:
            field_dict["user_uuid"] = user_uuid
        if status is not UNSET:
            field_dict["status"] = status
        if program_uuid is not UNSET:
            field_dict["program_uuid"] = program_uuid
        if search is not UNSET:
            field_dict["search"] = search

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_user_uuid(data: object) -> str | Unset | UUID:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                user_uuid_type_0 = UUID(data)

                return user_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | Unset | UUID, data)

        user_uuid = _parse_user_uuid(d.pop("user_uuid", UNSET))

        _status = d.pop("status", UNSET)
        status: ListOperatorCardsFiltersStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = ListOperatorCardsFiltersStatus(_status)

        def _parse_program_uuid(data: object) -> str | Unset | UUID:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                program_uuid_type_0 = UUID(data)

                return program_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | Unset | UUID, data)

        program_uuid = _parse_program_uuid(d.pop("program_uuid", UNSET))

        search = d.pop("search", UNSET)

        list_operator_cards_filters = cls(
            user_uuid=user_uuid,
            status=status,
            program_uuid=program_uuid,
            search=search,
        )

        return list_operator_cards_filters
