from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.report_keyset_meta import ReportKeysetMeta
    from ..models.report_page_meta import ReportPageMeta
    from ..models.transaction_record import TransactionRecord


T = TypeVar("T", bound="ReportPage")


@_attrs_define
class ReportPage:
    """
    Example:
        {'success': True, 'meta': {'current_page': 1, 'per_page': 1, 'total': 1, 'last_page': 1, 'next_starting_after':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'totals': [{'currency': 'EUR', 'debits': 12.5, 'credits': 12.5}]},
            'data': [{'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'type': 'card_purchase', 'status': 'pending',
            'amount': 12.5, 'currency': 'EUR', 'direction': 'debit', 'card_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30',
            'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'merchant': {'name': 'Ada Lovelace', 'mcc': '5411',
            'country': 'DE', 'city': 'Berlin'}, 'tag': 'example', 'error': 'example', 'fee': 12.5, 'refunded_amount': 12.5,
            'authorized_amount': 12.5, 'captured_amount': 12.5, 'hold_expires_at': '2026-03-19T10:15:00Z',
            'merchant_amount': 12.5, 'merchant_captured_amount': 12.5, 'merchant_currency': 'example', 'rate': 12.5,
            'flagged': True, 'description': 'Team travel', 'parent_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30',
            'decision': 'rules', 'channel': 'sandbox', 'network': {'stan': 'example', 'rrn': 'example', 'acquirer_id':
            'example', 'terminal_id': 'example', 'merchant_id': 'example', 'auth_code': 'example'}, 'token': {'uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'wallet': 'apple_pay', 'last4': '4242'}, 'stand_in': True, 'shortfall':
            12.5, 'clearing': {'file_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'message_number': 1, 'arn': 'example'},
            'receipt_attachment_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'created_at': '2026-03-19T10:15:00Z',
            'updated_at': '2026-03-19T10:15:00Z'}]}

    Attributes:
        meta (ReportKeysetMeta | ReportPageMeta):
        data (list[TransactionRecord]):
        success (bool | Unset):  Default: True.
    """

    meta: ReportKeysetMeta | ReportPageMeta
    data: list[TransactionRecord]
    success: bool | Unset = True
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.report_page_meta import ReportPageMeta  # noqa: PLC0415

        meta: dict[str, Any]
        if isinstance(self.meta, ReportPageMeta):
            meta = self.meta.to_dict()
        else:
            meta = self.meta.to_dict()

        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        success = self.success

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "meta": meta,
                "data": data,
            }
        )
        if success is not UNSET:
            field_dict["success"] = success

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.report_keyset_meta import ReportKeysetMeta  # noqa: PLC0415
        from ..models.report_page_meta import ReportPageMeta  # noqa: PLC0415
        from ..models.transaction_record import TransactionRecord  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_meta(data: object) -> ReportKeysetMeta | ReportPageMeta:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                meta_type_0 = ReportPageMeta.from_dict(data)

                return meta_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            meta_type_1 = ReportKeysetMeta.from_dict(data)

            return meta_type_1

        meta = _parse_meta(d.pop("meta"))

        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = TransactionRecord.from_dict(data_item_data)

            data.append(data_item)

        success = d.pop("success", UNSET)

        report_page = cls(
            meta=meta,
            data=data,
            success=success,
        )

        report_page.additional_properties = d
        return report_page

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
