from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.transaction_record import TransactionRecord


T = TypeVar("T", bound="EnvelopeTransactionRecord")


@_attrs_define
class EnvelopeTransactionRecord:
    """
    Example:
        {'success': True, 'data': {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'type': 'card_purchase', 'status':
            'pending', 'amount': 12.5, 'currency': 'EUR', 'direction': 'debit', 'card_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'merchant':
            {'name': 'Ada Lovelace', 'mcc': '5411', 'country': 'DE', 'city': 'Berlin'}, 'tag': 'example', 'error':
            'example', 'fee': 12.5, 'refunded_amount': 12.5, 'authorized_amount': 12.5, 'captured_amount': 12.5,
            'hold_expires_at': '2026-03-19T10:15:00Z', 'merchant_amount': 12.5, 'merchant_captured_amount': 12.5,
            'merchant_currency': 'example', 'rate': 12.5, 'flagged': True, 'description': 'Team travel', 'parent_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'decision': 'rules', 'channel': 'sandbox', 'network': {'stan':
            'example', 'rrn': 'example', 'acquirer_id': 'example', 'terminal_id': 'example', 'merchant_id': 'example',
            'auth_code': 'example'}, 'token': {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'wallet': 'apple_pay',
            'last4': '4242'}, 'stand_in': True, 'shortfall': 12.5, 'clearing': {'file_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'message_number': 1, 'arn': 'example'}, 'receipt_attachment_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'created_at': '2026-03-19T10:15:00Z', 'updated_at':
            '2026-03-19T10:15:00Z'}}

    Attributes:
        data (TransactionRecord):  Example: {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'type': 'card_purchase',
            'status': 'pending', 'amount': 12.5, 'currency': 'EUR', 'direction': 'debit', 'card_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'merchant':
            {'name': 'Ada Lovelace', 'mcc': '5411', 'country': 'DE', 'city': 'Berlin'}, 'tag': 'example', 'error':
            'example', 'fee': 12.5, 'refunded_amount': 12.5, 'authorized_amount': 12.5, 'captured_amount': 12.5,
            'hold_expires_at': '2026-03-19T10:15:00Z', 'merchant_amount': 12.5, 'merchant_captured_amount': 12.5,
            'merchant_currency': 'example', 'rate': 12.5, 'flagged': True, 'description': 'Team travel', 'parent_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'decision': 'rules', 'channel': 'sandbox', 'network': {'stan':
            'example', 'rrn': 'example', 'acquirer_id': 'example', 'terminal_id': 'example', 'merchant_id': 'example',
            'auth_code': 'example'}, 'token': {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'wallet': 'apple_pay',
            'last4': '4242'}, 'stand_in': True, 'shortfall': 12.5, 'clearing': {'file_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'message_number': 1, 'arn': 'example'}, 'receipt_attachment_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'created_at': '2026-03-19T10:15:00Z', 'updated_at':
            '2026-03-19T10:15:00Z'}.
        success (bool | Unset):  Default: True.
    """

    data: TransactionRecord
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
        from ..models.transaction_record import TransactionRecord  # noqa: PLC0415

        d = dict(src_dict)
        data = TransactionRecord.from_dict(d.pop("data"))

        success = d.pop("success", UNSET)

        envelope_transaction_record = cls(
            data=data,
            success=success,
        )

        envelope_transaction_record.additional_properties = d
        return envelope_transaction_record

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
