from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SetPinRequest")


@_attrs_define
class SetPinRequest:
    """`PUT /card/{cardUuid}/pin` (docs/cards.md#the-pin).

    Example:
        {'key_id': 'rsa-3f1c0b6a9e2d4c57', 'encrypted_pin':
            'bW9yZSB0aGFuIDM0MCBiYXNlNjQgY2hhcmFjdGVycyBpbiBwcmFjdGljZQ==', 'mfa_code': 'k3v9q2x7mz'}

    Attributes:
        key_id (str): The `key_id` of `GET /card/pin-key` the PIN was encrypted with.
        encrypted_pin (str): Base64 of RSA-OAEP (SHA-256, MGF1-SHA-256, no label) under that key, over the JSON
            `{"pin": "4 to 6 digits", "nonce": "16 to 128 characters, never used before"}`.
        mfa_code (str): A live MFA code of the caller (`POST /auth/mfa-code`), used up by this call.
    """

    key_id: str
    encrypted_pin: str
    mfa_code: str

    def to_dict(self) -> dict[str, Any]:
        key_id = self.key_id

        encrypted_pin = self.encrypted_pin

        mfa_code = self.mfa_code

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "key_id": key_id,
                "encrypted_pin": encrypted_pin,
                "mfa_code": mfa_code,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key_id = d.pop("key_id")

        encrypted_pin = d.pop("encrypted_pin")

        mfa_code = d.pop("mfa_code")

        set_pin_request = cls(
            key_id=key_id,
            encrypted_pin=encrypted_pin,
            mfa_code=mfa_code,
        )

        return set_pin_request
