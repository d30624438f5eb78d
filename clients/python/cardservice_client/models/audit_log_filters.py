from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.audit_log_filters_actor_type import AuditLogFiltersActorType
from ..types import UNSET, Unset

T = TypeVar("T", bound="AuditLogFilters")


@_attrs_define
class AuditLogFilters:
    """
    Attributes:
        actor_type (AuditLogFiltersActorType | Unset): Who acted: a cardholder, an operator key, an operator console
            session or the service
        action (str | Unset): Only this action, e.g. `user.created`, `card.details_revealed`
        object_type (str | Unset): Only rows about this kind of object, e.g. `user`, `account`, `card`
        object_uuid (str | Unset | UUID): Only rows about this object
    """

    actor_type: AuditLogFiltersActorType | Unset = UNSET
    action: str | Unset = UNSET
    object_type: str | Unset = UNSET
    object_uuid: str | Unset | UUID = UNSET

    def to_dict(self) -> dict[str, Any]:
        actor_type: str | Unset = UNSET
        if not isinstance(self.actor_type, Unset):
            actor_type = self.actor_type.value

        action = self.action

        object_type = self.object_type

        object_uuid: str | Unset
        if isinstance(self.object_uuid, Unset):
            object_uuid = UNSET
        elif isinstance(self.object_uuid, UUID):
            object_uuid = str(self.object_uuid)
        else:
            object_uuid = self.object_uuid

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if actor_type is not UNSET:
            field_dict["actor_type"] = actor_type
        if action is not UNSET:
            field_dict["action"] = action
        if object_type is not UNSET:
            field_dict["object_type"] = object_type
        if object_uuid is not UNSET:
            field_dict["object_uuid"] = object_uuid

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _actor_type = d.pop("actor_type", UNSET)
        actor_type: AuditLogFiltersActorType | Unset
        if isinstance(_actor_type, Unset):
            actor_type = UNSET
        else:
            actor_type = AuditLogFiltersActorType(_actor_type)

        action = d.pop("action", UNSET)

        object_type = d.pop("object_type", UNSET)

        def _parse_object_uuid(data: object) -> str | Unset | UUID:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                object_uuid_type_0 = UUID(data)

                return object_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | Unset | UUID, data)

        object_uuid = _parse_object_uuid(d.pop("object_uuid", UNSET))

        audit_log_filters = cls(
            actor_type=actor_type,
            action=action,
            object_type=object_type,
            object_uuid=object_uuid,
        )

        return audit_log_filters
