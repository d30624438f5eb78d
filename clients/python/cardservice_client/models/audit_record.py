from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.audit_actor import AuditActor
    from ..models.audit_record_details_type_0 import AuditRecordDetailsType0


T = TypeVar("T", bound="AuditRecord")


@_attrs_define
class AuditRecord:
    """
    Example:
        {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'created_at': '2026-03-19T10:15:00Z', 'actor': {'type':
            'example', 'id': 'example'}, 'action': 'example', 'object_type': 'example', 'object_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'request_id': 'example', 'details': {}}

    Attributes:
        uuid (str):
        created_at (datetime.datetime):
        actor (AuditActor):  Example: {'type': 'example', 'id': 'example'}.
        action (str):
        object_type (str):
        object_uuid (None | str):
        request_id (None | str):
        details (AuditRecordDetailsType0 | None):
    """

    uuid: str
    created_at: datetime.datetime
    actor: AuditActor
    action: str
    object_type: str
    object_uuid: None | str
    request_id: None | str
    details: AuditRecordDetailsType0 | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.audit_record_details_type_0 import AuditRecordDetailsType0  # noqa: PLC0415

        uuid = self.uuid

        created_at = self.created_at.isoformat()

        actor = self.actor.to_dict()

        action = self.action

        object_type = self.object_type

        object_uuid: None | str
        object_uuid = self.object_uuid

        request_id: None | str
        request_id = self.request_id

        details: dict[str, Any] | None
        if isinstance(self.details, AuditRecordDetailsType0):
            details = self.details.to_dict()
        else:
            details = self.details

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uuid": uuid,
                "created_at": created_at,
                "actor": actor,
                "action": action,
                "object_type": object_type,
                "object_uuid": object_uuid,
                "request_id": request_id,
                "details": details,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_actor import AuditActor  # noqa: PLC0415
        from ..models.audit_record_details_type_0 import AuditRecordDetailsType0  # noqa: PLC0415

        d = dict(src_dict)
        uuid = d.pop("uuid")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        actor = AuditActor.from_dict(d.pop("actor"))

        action = d.pop("action")

        object_type = d.pop("object_type")

        def _parse_object_uuid(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        object_uuid = _parse_object_uuid(d.pop("object_uuid"))

        def _parse_request_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        request_id = _parse_request_id(d.pop("request_id"))

        def _parse_details(data: object) -> AuditRecordDetailsType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                details_type_0 = AuditRecordDetailsType0.from_dict(data)

                return details_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AuditRecordDetailsType0 | None, data)

        details = _parse_details(d.pop("details"))

        audit_record = cls(
            uuid=uuid,
            created_at=created_at,
            actor=actor,
            action=action,
            object_type=object_type,
            object_uuid=object_uuid,
            request_id=request_id,
            details=details,
        )

        audit_record.additional_properties = d
        return audit_record

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
