from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.sign_in_accepted import SignInAccepted


T = TypeVar("T", bound="EnvelopeSignInAccepted")


@_attrs_define
class EnvelopeSignInAccepted:
    """
    Example:
        {'success': True, 'data': {'message': 'example'}}

    Attributes:
        data (SignInAccepted):  Example: {'message': 'example'}.
        success (bool | Unset):  Default: True.
    """

    data: SignInAccepted
    success: bool | Unset = True
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = self.data.to_dict()

        success = self.success

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
            }
        )
        if success is not UNSET:
            field_dict["success"] = success

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sign_in_accepted import SignInAccepted  # noqa: PLC0415

        d = dict(src_dict)
        data = SignInAccepted.from_dict(d.pop("data"))

        success = d.pop("success", UNSET)

        envelope_sign_in_accepted = cls(
            data=data,
            success=success,
        )

        envelope_sign_in_accepted.additional_properties = d
        return envelope_sign_in_accepted

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
