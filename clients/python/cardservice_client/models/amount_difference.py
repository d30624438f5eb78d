from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AmountDifference")


@_attrs_define
class AmountDifference:
    """
    Example:
        {'message_number': 1, 'transaction_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'authorized': 'example',
            'presented': 'example'}

    Attributes:
        message_number (int):
        transaction_uuid (UUID):
        authorized (str): What was captured before the presentment.
        presented (str):
    """

    message_number: int
    transaction_uuid: UUID
    authorized: str
    presented: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        message_number = self.message_number

        transaction_uuid = str(self.transaction_uuid)

        authorized = self.authorized

        presented = self.presented

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "message_number": message_number,
                "transaction_uuid": transaction_uuid,
                "authorized": authorized,
                "presented": presented,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        message_number = d.pop("message_number")

        transaction_uuid = UUID(d.pop("transaction_uuid"))

        authorized = d.pop("authorized")

        presented = d.pop("presented")

        amount_difference = cls(
            message_number=message_number,
            transaction_uuid=transaction_uuid,
            authorized=authorized,
            presented=presented,
        )

        amount_difference.additional_properties = d
        return amount_difference

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
