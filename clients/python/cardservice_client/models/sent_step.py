from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SentStep")


@_attrs_define
class SentStep:
    """A 1442 of the issuer's outgoing file (docs/disputes.md).

    Example:
        {'file_id': 'example', 'message_number': 1, 'sent_at': '2026-03-19T10:15:00Z'}

    Attributes:
        file_id (str):
        message_number (int):
        sent_at (datetime.datetime):
    """

    file_id: str
    message_number: int
    sent_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        file_id = self.file_id

        message_number = self.message_number

        sent_at = self.sent_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "file_id": file_id,
                "message_number": message_number,
                "sent_at": sent_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        file_id = d.pop("file_id")

        message_number = d.pop("message_number")

        sent_at = datetime.datetime.fromisoformat(d.pop("sent_at"))

        sent_step = cls(
            file_id=file_id,
            message_number=message_number,
            sent_at=sent_at,
        )

        sent_step.additional_properties = d
        return sent_step

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
