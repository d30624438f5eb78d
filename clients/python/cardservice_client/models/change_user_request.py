from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.change_user_request_status_type_0 import ChangeUserRequestStatusType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="ChangeUserRequest")


@_attrs_define
class ChangeUserRequest:
    """Any of these; `program_uuid: null` takes the user out of their program.

    Example:
        {'name': 'Ada King', 'status': 'active'}

    Attributes:
        name (None | str | Unset): A new name.
        status (ChangeUserRequestStatusType0 | None | Unset): `suspended`: the user's credentials answer 401 and their
            cards decline
            `account_inactive`; `active` restores both.
        program_uuid (None | str | Unset | UUID): Move the user to this program.
    """

    name: None | str | Unset = UNSET
    status: ChangeUserRequestStatusType0 | None | Unset = UNSET
    program_uuid: None | str | Unset | UUID = UNSET

    def to_dict(self) -> dict[str, Any]:
        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        status: None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, ChangeUserRequestStatusType0):
            status = self.status.value
        else:
            status = self.status

        program_uuid: None | str | Unset
        if isinstance(self.program_uuid, Unset):
            program_uuid = UNSET
        elif isinstance(self.program_uuid, UUID):
            program_uuid = str(self.program_uuid)
        else:
            program_uuid = self.program_uuid

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if status is not UNSET:
            field_dict["status"] = status
        if program_uuid is not UNSET:
            field_dict["program_uuid"] = program_uuid

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_status(data: object) -> ChangeUserRequestStatusType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = ChangeUserRequestStatusType0(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ChangeUserRequestStatusType0 | None | Unset, data)

        status = _parse_status(d.pop("status", UNSET))

        def _parse_program_uuid(data: object) -> None | str | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                program_uuid_type_0_type_0 = UUID(data)

                return program_uuid_type_0_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | str | Unset | UUID, data)

        program_uuid = _parse_program_uuid(d.pop("program_uuid", UNSET))

        change_user_request = cls(
            name=name,
            status=status,
            program_uuid=program_uuid,
        )

        return change_user_request
