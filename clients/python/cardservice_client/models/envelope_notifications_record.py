from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.notifications_record import NotificationsRecord


T = TypeVar("T", bound="EnvelopeNotificationsRecord")


@_attrs_define
class EnvelopeNotificationsRecord:
    """
    Example:
        {'success': True, 'data': {'sign_in': True, 'declined_payment': True, 'large_purchase': True,
            'large_purchase_amount': 12.5, 'team_request_decided': True, 'receipt_reminder': True, 'request_to_decide':
            True}}

    Attributes:
        data (NotificationsRecord):  Example: {'sign_in': True, 'declined_payment': True, 'large_purchase': True,
            'large_purchase_amount': 12.5, 'team_request_decided': True, 'receipt_reminder': True, 'request_to_decide':
            True}.
        success (bool | Unset):  Default: True.
    """

    data: NotificationsRecord
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
        from ..models.notifications_record import NotificationsRecord  # noqa: PLC0415

        d = dict(src_dict)
        data = NotificationsRecord.from_dict(d.pop("data"))

        success = d.pop("success", UNSET)

        envelope_notifications_record = cls(
            data=data,
            success=success,
        )

        envelope_notifications_record.additional_properties = d
        return envelope_notifications_record

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
