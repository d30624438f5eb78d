from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.user_summary import UserSummary


T = TypeVar("T", bound="EnvelopeUserSummary")


@_attrs_define
class EnvelopeUserSummary:
    """
    Example:
        {'success': True, 'data': {'user': {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'email': 'ada@example.com',
            'name': 'Ada Lovelace', 'team': {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace', 'role':
            'example'}}, 'balances': [{'currency': 'EUR', 'accounts_total': 12.5, 'cards_total': 12.5}], 'accounts':
            {'total': 1, 'by_status': {}}, 'cards': {'total': 1, 'active': 1, 'frozen': 1, 'closed': 1, 'favorite': 1},
            'spend': [{'currency': 'EUR', 'today': 12.5, 'last_7_days': 12.5, 'this_month': 12.5}], 'unassigned_3ds_codes':
            1}}

    Attributes:
        data (UserSummary):  Example: {'user': {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'email':
            'ada@example.com', 'name': 'Ada Lovelace', 'team': {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada
            Lovelace', 'role': 'example'}}, 'balances': [{'currency': 'EUR', 'accounts_total': 12.5, 'cards_total': 12.5}],
            'accounts': {'total': 1, 'by_status': {}}, 'cards': {'total': 1, 'active': 1, 'frozen': 1, 'closed': 1,
            'favorite': 1}, 'spend': [{'currency': 'EUR', 'today': 12.5, 'last_7_days': 12.5, 'this_month': 12.5}],
            'unassigned_3ds_codes': 1}.
        success (bool | Unset):  Default: True.
    """

    data: UserSummary
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
        from ..models.user_summary import UserSummary  # noqa: PLC0415

        d = dict(src_dict)
        data = UserSummary.from_dict(d.pop("data"))

        success = d.pop("success", UNSET)

        envelope_user_summary = cls(
            data=data,
            success=success,
        )

        envelope_user_summary.additional_properties = d
        return envelope_user_summary

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
