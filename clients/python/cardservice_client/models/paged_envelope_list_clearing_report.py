from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.clearing_report import ClearingReport
    from ..models.page_meta import PageMeta


T = TypeVar("T", bound="PagedEnvelopeListClearingReport")


@_attrs_define
class PagedEnvelopeListClearingReport:
    """
    Example:
        {'success': True, 'meta': {'current_page': 1, 'per_page': 1, 'total': 1, 'last_page': 1}, 'data': [{'uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'file_id': 'example', 'sha256':
            '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', 'received_at': '2026-03-19T10:15:00Z',
            'messages': 1, 'presentments': {'matched': 1, 'duplicates': 1, 'force_posted': 1}, 'refunds': 1,
            'representments': {'received': 1, 'exceptions': [{'message_number': 1, 'reason': 'example', 'transaction_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30'}], 'pre_arbitration': {'accepted': 1, 'declined': 1}},
            'amount_differences': [{'message_number': 1, 'transaction_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30',
            'authorized': 'example', 'presented': 'example'}], 'unmatched': [{'message_number': 1, 'reason': 'example'}],
            'ignored': 1, 'totals': [{'currency': 'EUR', 'count': 1, 'amount': 'example'}]}]}

    Attributes:
        meta (PageMeta):  Example: {'current_page': 1, 'per_page': 1, 'total': 1, 'last_page': 1}.
        data (list[ClearingReport]):
        success (bool | Unset):  Default: True.
    """

    meta: PageMeta
    data: list[ClearingReport]
    success: bool | Unset = True
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
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
        from ..models.clearing_report import ClearingReport  # noqa: PLC0415
        from ..models.page_meta import PageMeta  # noqa: PLC0415

        d = dict(src_dict)
        meta = PageMeta.from_dict(d.pop("meta"))

        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = ClearingReport.from_dict(data_item_data)

            data.append(data_item)

        success = d.pop("success", UNSET)

        paged_envelope_list_clearing_report = cls(
            meta=meta,
            data=data,
            success=success,
        )

        paged_envelope_list_clearing_report.additional_properties = d
        return paged_envelope_list_clearing_report

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
