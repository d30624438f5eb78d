from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.team_ref import TeamRef


T = TypeVar("T", bound="UserRef")


@_attrs_define
class UserRef:
    """
    Example:
        {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'email': 'ada@example.com', 'name': 'Ada Lovelace', 'team':
            {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace', 'role': 'example'}}

    Attributes:
        uuid (UUID):
        email (str):
        name (str):
        team (None | TeamRef):
    """

    uuid: UUID
    email: str
    name: str
    team: None | TeamRef
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.team_ref import TeamRef  # noqa: PLC0415

        uuid = str(self.uuid)

        email = self.email

        name = self.name

        team: dict[str, Any] | None
        if isinstance(self.team, TeamRef):
            team = self.team.to_dict()
        else:
            team = self.team

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uuid": uuid,
                "email": email,
                "name": name,
                "team": team,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.team_ref import TeamRef  # noqa: PLC0415

        d = dict(src_dict)
        uuid = UUID(d.pop("uuid"))

        email = d.pop("email")

        name = d.pop("name")

        def _parse_team(data: object) -> None | TeamRef:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                team_type_0 = TeamRef.from_dict(data)

                return team_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TeamRef, data)

        team = _parse_team(d.pop("team"))

        user_ref = cls(
            uuid=uuid,
            email=email,
            name=name,
            team=team,
        )

        user_ref.additional_properties = d
        return user_ref

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
