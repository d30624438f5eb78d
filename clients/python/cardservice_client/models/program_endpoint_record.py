from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.program_endpoint_record_event_types_type_0_item_type_0 import (
    ProgramEndpointRecordEventTypesType0ItemType0,
)
from ..models.program_endpoint_record_event_types_type_0_item_type_1 import (
    ProgramEndpointRecordEventTypesType0ItemType1,
)

T = TypeVar("T", bound="ProgramEndpointRecord")


@_attrs_define
class ProgramEndpointRecord:
    """
    Example:
        {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'url': 'https://hooks.example.com/cardservice', 'description':
            'Team travel', 'event_types': ['card.created'], 'enabled': True, 'secret': 'example', 'created_at':
            '2026-03-19T10:15:00Z', 'updated_at': '2026-03-19T10:15:00Z'}

    Attributes:
        uuid (UUID):
        url (str):
        description (None | str):
        event_types (list[ProgramEndpointRecordEventTypesType0ItemType0 | ProgramEndpointRecordEventTypesType0ItemType1]
            | None):
        enabled (bool):
        secret (str): in full only on create and rotation; masked elsewhere
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    uuid: UUID
    url: str
    description: None | str
    event_types: (
        list[ProgramEndpointRecordEventTypesType0ItemType0 | ProgramEndpointRecordEventTypesType0ItemType1] | None
    )
    enabled: bool
    secret: str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        uuid = str(self.uuid)

        url = self.url

        description: None | str
        description = self.description

        event_types: list[str] | None
        if isinstance(self.event_types, list):
            event_types = []
            for event_types_type_0_item_data in self.event_types:
                event_types_type_0_item: str
                if isinstance(event_types_type_0_item_data, ProgramEndpointRecordEventTypesType0ItemType0):
                    event_types_type_0_item = event_types_type_0_item_data.value
                else:
                    event_types_type_0_item = event_types_type_0_item_data.value

                event_types.append(event_types_type_0_item)

        else:
            event_types = self.event_types

        enabled = self.enabled

        secret = self.secret

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uuid": uuid,
                "url": url,
                "description": description,
                "event_types": event_types,
                "enabled": enabled,
                "secret": secret,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        uuid = UUID(d.pop("uuid"))

        url = d.pop("url")

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        def _parse_event_types(
            data: object,
        ) -> list[ProgramEndpointRecordEventTypesType0ItemType0 | ProgramEndpointRecordEventTypesType0ItemType1] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                event_types_type_0 = []
                _event_types_type_0 = data
                for event_types_type_0_item_data in _event_types_type_0:

                    def _parse_event_types_type_0_item(
                        data: object,
                    ) -> ProgramEndpointRecordEventTypesType0ItemType0 | ProgramEndpointRecordEventTypesType0ItemType1:
                        try:
                            if not isinstance(data, str):
                                raise TypeError()
                            event_types_type_0_item_type_0 = ProgramEndpointRecordEventTypesType0ItemType0(data)

                            return event_types_type_0_item_type_0
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        if not isinstance(data, str):
                            raise TypeError()
                        event_types_type_0_item_type_1 = ProgramEndpointRecordEventTypesType0ItemType1(data)

                        return event_types_type_0_item_type_1

                    event_types_type_0_item = _parse_event_types_type_0_item(event_types_type_0_item_data)

                    event_types_type_0.append(event_types_type_0_item)

                return event_types_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                list[ProgramEndpointRecordEventTypesType0ItemType0 | ProgramEndpointRecordEventTypesType0ItemType1]
                | None,
                data,
            )

        event_types = _parse_event_types(d.pop("event_types"))

        enabled = d.pop("enabled")

        secret = d.pop("secret")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        program_endpoint_record = cls(
            uuid=uuid,
            url=url,
            description=description,
            event_types=event_types,
            enabled=enabled,
            secret=secret,
            created_at=created_at,
            updated_at=updated_at,
        )

        program_endpoint_record.additional_properties = d
        return program_endpoint_record

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
