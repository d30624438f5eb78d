from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ClearingData")


@_attrs_define
class ClearingData:
    """The clearing file's record that booked a transaction (docs/network.md#clearing-files).

    Example:
        {'file_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'message_number': 1, 'arn': 'example'}

    Attributes:
        file_uuid (UUID): The clearing file (`GET /operator/clearing-files/{uuid}`).
        message_number (int): The record's message number in the file (DE 71).
        arn (None | str): Acquirer reference data (DE 31).
    """

    file_uuid: UUID
    message_number: int
    arn: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        file_uuid = str(self.file_uuid)

        message_number = self.message_number

        arn: None | str
        arn = self.arn

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "file_uuid": file_uuid,
                "message_number": message_number,
                "arn": arn,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        file_uuid = UUID(d.pop("file_uuid"))

        message_number = d.pop("message_number")

        def _parse_arn(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        arn = _parse_arn(d.pop("arn"))

        clearing_data = cls(
            file_uuid=file_uuid,
            message_number=message_number,
            arn=arn,
        )

        clearing_data.additional_properties = d
        return clearing_data

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
