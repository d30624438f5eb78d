from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="OutgoingRecord")


@_attrs_define
class OutgoingRecord:
    """
    Example:
        {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'file_id': 'example', 'date': '2026-03-19', 'messages': 1,
            'sha256': '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', 'created_at':
            '2026-03-19T10:15:00Z'}

    Attributes:
        uuid (UUID):
        file_id (str):
        date (datetime.date):
        messages (int):
        sha256 (str):
        created_at (str):
    """

    uuid: UUID
    file_id: str
    date: datetime.date
    messages: int
    sha256: str
    created_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        uuid = str(self.uuid)

        file_id = self.file_id

        date = self.date.isoformat()

        messages = self.messages

        sha256 = self.sha256

        created_at = self.created_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uuid": uuid,
                "file_id": file_id,
                "date": date,
                "messages": messages,
                "sha256": sha256,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        uuid = UUID(d.pop("uuid"))

        file_id = d.pop("file_id")

        date = datetime.date.fromisoformat(d.pop("date"))

        messages = d.pop("messages")

        sha256 = d.pop("sha256")

        created_at = d.pop("created_at")

        outgoing_record = cls(
            uuid=uuid,
            file_id=file_id,
            date=date,
            messages=messages,
            sha256=sha256,
            created_at=created_at,
        )

        outgoing_record.additional_properties = d
        return outgoing_record

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
