from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.dispute_record import DisputeRecord


T = TypeVar("T", bound="EnvelopeDisputeRecord")


@_attrs_define
class EnvelopeDisputeRecord:
    """
    Example:
        {'success': True, 'data': {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'transaction_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'amount': 12.5, 'currency': 'EUR', 'reason': 'fraudulent',
            'reason_code': 'example', 'explanation': 'example', 'status': 'open', 'evidence_attachment_uuids':
            ['0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30'], 'credit_transaction_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30',
            'provisional_credit': 12.5, 'arn': 'example', 'chargeback': {'file_id': 'example', 'message_number': 1,
            'sent_at': '2026-03-19T10:15:00Z'}, 'representment': {'file_id': 'example', 'message_number': 1, 'amount': 12.5,
            'received_at': '2026-03-19T10:15:00Z', 'message': 'example'}, 'pre_arbitration': {'file_id': 'example',
            'message_number': 1, 'sent_at': '2026-03-19T10:15:00Z'}, 'deadline': '2026-03-19', 'history': [{'status':
            'open', 'at': '2026-03-19T10:15:00Z'}], 'created_at': '2026-03-19T10:15:00Z', 'updated_at':
            '2026-03-19T10:15:00Z', 'resolved_at': '2026-03-19T10:15:00Z'}}

    Attributes:
        data (DisputeRecord):  Example: {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'transaction_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'amount': 12.5, 'currency': 'EUR', 'reason': 'fraudulent',
            'reason_code': 'example', 'explanation': 'example', 'status': 'open', 'evidence_attachment_uuids':
            ['0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30'], 'credit_transaction_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30',
            'provisional_credit': 12.5, 'arn': 'example', 'chargeback': {'file_id': 'example', 'message_number': 1,
            'sent_at': '2026-03-19T10:15:00Z'}, 'representment': {'file_id': 'example', 'message_number': 1, 'amount': 12.5,
            'received_at': '2026-03-19T10:15:00Z', 'message': 'example'}, 'pre_arbitration': {'file_id': 'example',
            'message_number': 1, 'sent_at': '2026-03-19T10:15:00Z'}, 'deadline': '2026-03-19', 'history': [{'status':
            'open', 'at': '2026-03-19T10:15:00Z'}], 'created_at': '2026-03-19T10:15:00Z', 'updated_at':
            '2026-03-19T10:15:00Z', 'resolved_at': '2026-03-19T10:15:00Z'}.
        success (bool | Unset):  Default: True.
    """

    data: DisputeRecord
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
        from ..models.dispute_record import DisputeRecord  # noqa: PLC0415

        d = dict(src_dict)
        data = DisputeRecord.from_dict(d.pop("data"))

        success = d.pop("success", UNSET)

        envelope_dispute_record = cls(
            data=data,
            success=success,
        )

        envelope_dispute_record.additional_properties = d
        return envelope_dispute_record

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
