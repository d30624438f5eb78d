from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.create_user_request_role_type_0 import CreateUserRequestRoleType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateUserRequest")


@_attrs_define
class CreateUserRequest:
    """
    Example:
        {'email': 'ada@example.com', 'name': 'Ada Lovelace', 'team': 'Analytical Engines', 'role': 'owner'}

    Attributes:
        email (str): The user's email, unique (case ignored); 409 `email_taken` when in use.
        name (str): The user's name as shown in the dashboard and on statements.
        team (None | str | Unset): The team's name; users of one team with role `owner` see the members' accounts and
            events, read-only.
        role (CreateUserRequestRoleType0 | None | Unset): `owner` or `member` of `team`.
        program_uuid (None | str | Unset | UUID): The card program the user belongs to (its BINs and controls apply);
            none by default.
    """

    email: str
    name: str
    team: None | str | Unset = UNSET
    role: CreateUserRequestRoleType0 | None | Unset = UNSET
    program_uuid: None | str | Unset | UUID = UNSET

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        name = self.name

        team: None | str | Unset
        if isinstance(self.team, Unset):
            team = UNSET
        else:
            team = self.team

        role: None | str | Unset
        if isinstance(self.role, Unset):
            role = UNSET
        elif isinstance(self.role, CreateUserRequestRoleType0):
            role = self.role.value
        else:
            role = self.role

        program_uuid: None | str | Unset
        if isinstance(self.program_uuid, Unset):
            program_uuid = UNSET
        elif isinstance(self.program_uuid, UUID):
            program_uuid = str(self.program_uuid)
        else:
            program_uuid = self.program_uuid

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "email": email,
                "name": name,
            }
        )
        if team is not UNSET:
            field_dict["team"] = team
        if role is not UNSET:
            field_dict["role"] = role
        if program_uuid is not UNSET:
            field_dict["program_uuid"] = program_uuid

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email = d.pop("email")

        name = d.pop("name")

        def _parse_team(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        team = _parse_team(d.pop("team", UNSET))

        def _parse_role(data: object) -> CreateUserRequestRoleType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                role_type_0 = CreateUserRequestRoleType0(data)

                return role_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CreateUserRequestRoleType0 | None | Unset, data)

        role = _parse_role(d.pop("role", UNSET))

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

        create_user_request = cls(
            email=email,
            name=name,
            team=team,
            role=role,
            program_uuid=program_uuid,
        )

        return create_user_request
