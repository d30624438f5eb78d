from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.user_record_status import UserRecordStatus

T = TypeVar("T", bound="UserRecord")


@_attrs_define
class UserRecord:
    """
    Example:
        {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'email': 'ada@example.com', 'name': 'Ada Lovelace', 'team':
            'example', 'role': 'example', 'program_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'status': 'active',
            'created_at': '2026-03-19T10:15:00Z'}

    Attributes:
        uuid (UUID):
        email (str):
        name (str):
        team (None | str):
        role (None | str):
        program_uuid (None | UUID):
        status (UserRecordStatus):
        created_at (datetime.datetime):
    """

    uuid: UUID
    email: str
    name: str
    team: None | str
    role: None | str
    program_uuid: None | UUID
    status: UserRecordStatus
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        uuid = str(self.uuid)

        email = self.email

        name = self.name

        team: None | str
        team = self.team

        role: None | str
        role = self.role

        program_uuid: None | str
        if isinstance(self.program_uuid, UUID):
            program_uuid = str(self.program_uuid)
        else:
            program_uuid = self.program_uuid

        status = self.status.value

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uuid": uuid,
                "email": email,
                "name": name,
                "team": team,
                "role": role,
                "program_uuid": program_uuid,
                "status": status,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        uuid = UUID(d.pop("uuid"))

        email = d.pop("email")

        name = d.pop("name")

        def _parse_team(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        team = _parse_team(d.pop("team"))

        def _parse_role(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        role = _parse_role(d.pop("role"))

        def _parse_program_uuid(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                program_uuid_type_0 = UUID(data)

                return program_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        program_uuid = _parse_program_uuid(d.pop("program_uuid"))

        status = UserRecordStatus(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        user_record = cls(
            uuid=uuid,
            email=email,
            name=name,
            team=team,
            role=role,
            program_uuid=program_uuid,
            status=status,
            created_at=created_at,
        )

        user_record.additional_properties = d
        return user_record

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
