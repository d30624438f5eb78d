from __future__ import annotations

import builtins
import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_record_type import EventRecordType

if TYPE_CHECKING:
    from ..models.event_record_data import EventRecordData


T = TypeVar("T", bound="EventRecord")


@_attrs_define
class EventRecord:
    """
    Example:
        {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'sequence': 1, 'type': 'card.created', 'created_at':
            '2026-03-19T10:15:00Z', 'data': {}}

    Attributes:
        uuid (UUID):
        sequence (int):
        type (EventRecordType):
        created_at (datetime.datetime):
        data (EventRecordData):
    """

    uuid: UUID
    sequence: int
    type: EventRecordType
    created_at: datetime.datetime
    data: EventRecordData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        uuid = str(self.uuid)

        sequence = self.sequence

        type = self.type.value

        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uuid": uuid,
                "sequence": sequence,
                "type": type,
                "created_at": created_at,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: builtins.type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_record_data import EventRecordData  # noqa: PLC0415

        d = dict(src_dict)
        uuid = UUID(d.pop("uuid"))

        sequence = d.pop("sequence")

        type = EventRecordType(d.pop("type"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        data = EventRecordData.from_dict(d.pop("data"))

        event_record = cls(
            uuid=uuid,
            sequence=sequence,
            type=type,
            created_at=created_at,
            data=data,
        )

        event_record.additional_properties = d
        return event_record

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
