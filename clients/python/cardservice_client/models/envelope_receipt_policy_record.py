from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.receipt_policy_record import ReceiptPolicyRecord


T = TypeVar("T", bound="EnvelopeReceiptPolicyRecord")


@_attrs_define
class EnvelopeReceiptPolicyRecord:
    """
    Example:
        {'success': True, 'data': {'min_amount': 12.5, 'currency': 'EUR', 'remind_after_days': 1, 'freeze_after_days':
            1, 'created_at': '2026-03-19T10:15:00Z', 'updated_at': '2026-03-19T10:15:00Z'}}

    Attributes:
        data (ReceiptPolicyRecord):  Example: {'min_amount': 12.5, 'currency': 'EUR', 'remind_after_days': 1,
            'freeze_after_days': 1, 'created_at': '2026-03-19T10:15:00Z', 'updated_at': '2026-03-19T10:15:00Z'}.
        success (bool | Unset):  Default: True.
    """

    data: ReceiptPolicyRecord
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
        from ..models.receipt_policy_record import ReceiptPolicyRecord  # noqa: PLC0415

        d = dict(src_dict)
        data = ReceiptPolicyRecord.from_dict(d.pop("data"))

        success = d.pop("success", UNSET)

        envelope_receipt_policy_record = cls(
            data=data,
            success=success,
        )

        envelope_receipt_policy_record.additional_properties = d
        return envelope_receipt_policy_record

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
