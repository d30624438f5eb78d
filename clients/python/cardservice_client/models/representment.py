from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Representment")


@_attrs_define
class Representment:
    """The merchant's second presentment, a 1240 of an incoming file (docs/disputes.md).

    Example:
        {'file_id': 'example', 'message_number': 1, 'amount': 12.5, 'received_at': '2026-03-19T10:15:00Z', 'message':
            'example'}

    Attributes:
        file_id (str):
        message_number (int):
        amount (Decimal):
        received_at (datetime.datetime):
        message (None | str):
    """

    file_id: str
    message_number: int
    amount: Decimal
    received_at: datetime.datetime
    message: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        file_id = self.file_id

        message_number = self.message_number

        amount = self.amount

        received_at = self.received_at.isoformat()

        message: None | str
        message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "file_id": file_id,
                "message_number": message_number,
                "amount": amount,
                "received_at": received_at,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        file_id = d.pop("file_id")

        message_number = d.pop("message_number")

        amount = d.pop("amount")

        received_at = datetime.datetime.fromisoformat(d.pop("received_at"))

        def _parse_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        message = _parse_message(d.pop("message"))

        representment = cls(
            file_id=file_id,
            message_number=message_number,
            amount=amount,
            received_at=received_at,
            message=message,
        )

        representment.additional_properties = d
        return representment

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
