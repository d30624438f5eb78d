from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RepresentmentException")


@_attrs_define
class RepresentmentException:
    """
    Example:
        {'message_number': 1, 'reason': 'example', 'transaction_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30'}

    Attributes:
        message_number (int):
        reason (str):
        transaction_uuid (None | UUID): The disputed purchase.
    """

    message_number: int
    reason: str
    transaction_uuid: None | UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        message_number = self.message_number

        reason = self.reason

        transaction_uuid: None | str
        if isinstance(self.transaction_uuid, UUID):
            transaction_uuid = str(self.transaction_uuid)
        else:
            transaction_uuid = self.transaction_uuid

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "message_number": message_number,
                "reason": reason,
                "transaction_uuid": transaction_uuid,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        message_number = d.pop("message_number")

        reason = d.pop("reason")

        def _parse_transaction_uuid(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                transaction_uuid_type_0 = UUID(data)

                return transaction_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        transaction_uuid = _parse_transaction_uuid(d.pop("transaction_uuid"))

        representment_exception = cls(
            message_number=message_number,
            reason=reason,
            transaction_uuid=transaction_uuid,
        )

        representment_exception.additional_properties = d
        return representment_exception

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
