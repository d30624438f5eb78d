from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.amount_difference import AmountDifference
    from ..models.presentments import Presentments
    from ..models.representments import Representments
    from ..models.total import Total
    from ..models.unmatched import Unmatched


T = TypeVar("T", bound="ClearingReport")


@_attrs_define
class ClearingReport:
    """
    Example:
        {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'file_id': 'example', 'sha256':
            '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', 'received_at': '2026-03-19T10:15:00Z',
            'messages': 1, 'presentments': {'matched': 1, 'duplicates': 1, 'force_posted': 1}, 'refunds': 1,
            'representments': {'received': 1, 'exceptions': [{'message_number': 1, 'reason': 'example', 'transaction_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30'}], 'pre_arbitration': {'accepted': 1, 'declined': 1}},
            'amount_differences': [{'message_number': 1, 'transaction_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30',
            'authorized': 'example', 'presented': 'example'}], 'unmatched': [{'message_number': 1, 'reason': 'example'}],
            'ignored': 1, 'totals': [{'currency': 'EUR', 'count': 1, 'amount': 'example'}]}

    Attributes:
        uuid (UUID):
        file_id (str): PDS 0105 of the file's header.
        sha256 (str):
        received_at (datetime.datetime):
        messages (int): Every message read, header and trailer included.
        presentments (Presentments):  Example: {'matched': 1, 'duplicates': 1, 'force_posted': 1}.
        refunds (int):
        representments (Representments):  Example: {'received': 1, 'exceptions': [{'message_number': 1, 'reason':
            'example', 'transaction_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30'}], 'pre_arbitration': {'accepted': 1,
            'declined': 1}}.
        amount_differences (list[AmountDifference]):
        unmatched (list[Unmatched]):
        ignored (int):
        totals (list[Total]):
    """

    uuid: UUID
    file_id: str
    sha256: str
    received_at: datetime.datetime
    messages: int
    presentments: Presentments
    refunds: int
    representments: Representments
    amount_differences: list[AmountDifference]
    unmatched: list[Unmatched]
    ignored: int
    totals: list[Total]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        uuid = str(self.uuid)

        file_id = self.file_id

        sha256 = self.sha256

        received_at = self.received_at.isoformat()

        messages = self.messages

        presentments = self.presentments.to_dict()

        refunds = self.refunds

        representments = self.representments.to_dict()

        amount_differences = []
        for amount_differences_item_data in self.amount_differences:
            amount_differences_item = amount_differences_item_data.to_dict()
            amount_differences.append(amount_differences_item)

        unmatched = []
        for unmatched_item_data in self.unmatched:
            unmatched_item = unmatched_item_data.to_dict()
            unmatched.append(unmatched_item)

        ignored = self.ignored

        totals = []
        for totals_item_data in self.totals:
            totals_item = totals_item_data.to_dict()
            totals.append(totals_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uuid": uuid,
                "file_id": file_id,
                "sha256": sha256,
                "received_at": received_at,
                "messages": messages,
                "presentments": presentments,
                "refunds": refunds,
                "representments": representments,
                "amount_differences": amount_differences,
                "unmatched": unmatched,
                "ignored": ignored,
                "totals": totals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.amount_difference import AmountDifference  # noqa: PLC0415
        from ..models.presentments import Presentments  # noqa: PLC0415
        from ..models.representments import Representments  # noqa: PLC0415
        from ..models.total import Total  # noqa: PLC0415
        from ..models.unmatched import Unmatched  # noqa: PLC0415

        d = dict(src_dict)
        uuid = UUID(d.pop("uuid"))

        file_id = d.pop("file_id")

        sha256 = d.pop("sha256")

        received_at = datetime.datetime.fromisoformat(d.pop("received_at"))

        messages = d.pop("messages")

        presentments = Presentments.from_dict(d.pop("presentments"))

        refunds = d.pop("refunds")

        representments = Representments.from_dict(d.pop("representments"))

        amount_differences = []
        _amount_differences = d.pop("amount_differences")
        for amount_differences_item_data in _amount_differences:
            amount_differences_item = AmountDifference.from_dict(amount_differences_item_data)

            amount_differences.append(amount_differences_item)

        unmatched = []
        _unmatched = d.pop("unmatched")
        for unmatched_item_data in _unmatched:
            unmatched_item = Unmatched.from_dict(unmatched_item_data)

            unmatched.append(unmatched_item)

        ignored = d.pop("ignored")

        totals = []
        _totals = d.pop("totals")
        for totals_item_data in _totals:
            totals_item = Total.from_dict(totals_item_data)

            totals.append(totals_item)

        clearing_report = cls(
            uuid=uuid,
            file_id=file_id,
            sha256=sha256,
            received_at=received_at,
            messages=messages,
            presentments=presentments,
            refunds=refunds,
            representments=representments,
            amount_differences=amount_differences,
            unmatched=unmatched,
            ignored=ignored,
            totals=totals,
        )

        clearing_report.additional_properties = d
        return clearing_report

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
