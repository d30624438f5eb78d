from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="RevealRequest")


@_attrs_define
class RevealRequest:
    """`POST /card/{uuid}/reveal` (docs/security.md#card-details-cvv2-and-issuer-keys): a live MFA
    code of the caller, used up.

        Example:
            {'mfa_code': 'k3v9q2x7mz'}

        Attributes:
            mfa_code (str): A live MFA code of the caller (`POST /auth/mfa-code` or `cardservice mfa issue`), used up
                by this call. Wrong, expired, used or another user's → 403 `step_up_failed`.
    """

    mfa_code: str

    def to_dict(self) -> dict[str, Any]:
        mfa_code = self.mfa_code

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "mfa_code": mfa_code,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        mfa_code = d.pop("mfa_code")

        reveal_request = cls(
            mfa_code=mfa_code,
        )

        return reveal_request
