from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PinKey")


@_attrs_define
class PinKey:
    """The key to encrypt a PIN with (docs/cards.md#the-pin).

    Example:
        {'key_id': 'example', 'public_key_pem': 'example'}

    Attributes:
        key_id (str):
        public_key_pem (str):
    """

    key_id: str
    public_key_pem: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        key_id = self.key_id

        public_key_pem = self.public_key_pem

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "key_id": key_id,
                "public_key_pem": public_key_pem,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key_id = d.pop("key_id")

        public_key_pem = d.pop("public_key_pem")

        pin_key = cls(
            key_id=key_id,
            public_key_pem=public_key_pem,
        )

        pin_key.additional_properties = d
        return pin_key

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
