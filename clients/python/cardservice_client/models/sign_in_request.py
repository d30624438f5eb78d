from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SignInRequest")


@_attrs_define
class SignInRequest:
    """
    Example:
        {'email': 'ada@example.com'}

    Attributes:
        email (str): The address you are known by; a link is mailed to it if it is a user's.
    """

    email: str

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "email": email,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email = d.pop("email")

        sign_in_request = cls(
            email=email,
        )

        return sign_in_request
