from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.dispute_record_reason import DisputeRecordReason
from ..models.dispute_record_status import DisputeRecordStatus

if TYPE_CHECKING:
    from ..models.history_step import HistoryStep
    from ..models.representment import Representment
    from ..models.sent_step import SentStep


T = TypeVar("T", bound="DisputeRecord")


@_attrs_define
class DisputeRecord:
    """
    Example:
        {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'transaction_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30',
            'amount': 12.5, 'currency': 'EUR', 'reason': 'fraudulent', 'reason_code': 'example', 'explanation': 'example',
            'status': 'open', 'evidence_attachment_uuids': ['0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30'],
            'credit_transaction_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'provisional_credit': 12.5, 'arn': 'example',
            'chargeback': {'file_id': 'example', 'message_number': 1, 'sent_at': '2026-03-19T10:15:00Z'}, 'representment':
            {'file_id': 'example', 'message_number': 1, 'amount': 12.5, 'received_at': '2026-03-19T10:15:00Z', 'message':
            'example'}, 'pre_arbitration': {'file_id': 'example', 'message_number': 1, 'sent_at': '2026-03-19T10:15:00Z'},
            'deadline': '2026-03-19', 'history': [{'status': 'open', 'at': '2026-03-19T10:15:00Z'}], 'created_at':
            '2026-03-19T10:15:00Z', 'updated_at': '2026-03-19T10:15:00Z', 'resolved_at': '2026-03-19T10:15:00Z'}

    Attributes:
        uuid (UUID):
        transaction_uuid (UUID):
        amount (Decimal):
        currency (str):
        reason (DisputeRecordReason):
        reason_code (str): Mastercard's reason code of `reason` (DE 25)
        explanation (None | str):
        status (DisputeRecordStatus):
        evidence_attachment_uuids (list[UUID]):
        credit_transaction_uuid (None | UUID): the `dispute_credit` transaction of a won dispute
        provisional_credit (Decimal): credited to the card ahead of the outcome (the program's `provisional_credit`), 0
            when none or taken back
        arn (None | str): the disputed purchase's ARN (DE 31 of the chargeback)
        chargeback (None | SentStep):
        representment (None | Representment):
        pre_arbitration (None | SentStep):
        deadline (datetime.date | None): the date the next step is due
        history (list[HistoryStep]):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        resolved_at (datetime.datetime | None):
    """

    uuid: UUID
    transaction_uuid: UUID
    amount: Decimal
    currency: str
    reason: DisputeRecordReason
    reason_code: str
    explanation: None | str
    status: DisputeRecordStatus
    evidence_attachment_uuids: list[UUID]
    credit_transaction_uuid: None | UUID
    provisional_credit: Decimal
    arn: None | str
    chargeback: None | SentStep
    representment: None | Representment
    pre_arbitration: None | SentStep
    deadline: datetime.date | None
    history: list[HistoryStep]
    created_at: datetime.datetime
    updated_at: datetime.datetime
    resolved_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.representment import Representment  # noqa: PLC0415
        from ..models.sent_step import SentStep  # noqa: PLC0415

        uuid = str(self.uuid)

        transaction_uuid = str(self.transaction_uuid)

        amount = self.amount

        currency = self.currency

        reason = self.reason.value

        reason_code = self.reason_code

        explanation: None | str
        explanation = self.explanation

        status = self.status.value

        evidence_attachment_uuids = []
        for evidence_attachment_uuids_item_data in self.evidence_attachment_uuids:
            evidence_attachment_uuids_item = str(evidence_attachment_uuids_item_data)
            evidence_attachment_uuids.append(evidence_attachment_uuids_item)

        credit_transaction_uuid: None | str
        if isinstance(self.credit_transaction_uuid, UUID):
            credit_transaction_uuid = str(self.credit_transaction_uuid)
        else:
            credit_transaction_uuid = self.credit_transaction_uuid

        provisional_credit = self.provisional_credit

        arn: None | str
        arn = self.arn

        chargeback: dict[str, Any] | None
        if isinstance(self.chargeback, SentStep):
            chargeback = self.chargeback.to_dict()
        else:
            chargeback = self.chargeback

        representment: dict[str, Any] | None
        if isinstance(self.representment, Representment):
            representment = self.representment.to_dict()
        else:
            representment = self.representment

        pre_arbitration: dict[str, Any] | None
        if isinstance(self.pre_arbitration, SentStep):
            pre_arbitration = self.pre_arbitration.to_dict()
        else:
            pre_arbitration = self.pre_arbitration

        deadline: None | str
        if isinstance(self.deadline, datetime.date):
            deadline = self.deadline.isoformat()
        else:
            deadline = self.deadline

        history = []
        for history_item_data in self.history:
            history_item = history_item_data.to_dict()
            history.append(history_item)

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        resolved_at: None | str
        if isinstance(self.resolved_at, datetime.datetime):
            resolved_at = self.resolved_at.isoformat()
        else:
            resolved_at = self.resolved_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uuid": uuid,
                "transaction_uuid": transaction_uuid,
                "amount": amount,
                "currency": currency,
                "reason": reason,
                "reason_code": reason_code,
                "explanation": explanation,
                "status": status,
                "evidence_attachment_uuids": evidence_attachment_uuids,
                "credit_transaction_uuid": credit_transaction_uuid,
                "provisional_credit": provisional_credit,
                "arn": arn,
                "chargeback": chargeback,
                "representment": representment,
                "pre_arbitration": pre_arbitration,
                "deadline": deadline,
                "history": history,
                "created_at": created_at,
                "updated_at": updated_at,
                "resolved_at": resolved_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.history_step import HistoryStep  # noqa: PLC0415
        from ..models.representment import Representment  # noqa: PLC0415
        from ..models.sent_step import SentStep  # noqa: PLC0415

        d = dict(src_dict)
        uuid = UUID(d.pop("uuid"))

        transaction_uuid = UUID(d.pop("transaction_uuid"))

        amount = d.pop("amount")

        currency = d.pop("currency")

        reason = DisputeRecordReason(d.pop("reason"))

        reason_code = d.pop("reason_code")

        def _parse_explanation(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        explanation = _parse_explanation(d.pop("explanation"))

        status = DisputeRecordStatus(d.pop("status"))

        evidence_attachment_uuids = []
        _evidence_attachment_uuids = d.pop("evidence_attachment_uuids")
        for evidence_attachment_uuids_item_data in _evidence_attachment_uuids:
            evidence_attachment_uuids_item = UUID(evidence_attachment_uuids_item_data)

            evidence_attachment_uuids.append(evidence_attachment_uuids_item)

        def _parse_credit_transaction_uuid(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                credit_transaction_uuid_type_0 = UUID(data)

                return credit_transaction_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        credit_transaction_uuid = _parse_credit_transaction_uuid(d.pop("credit_transaction_uuid"))

        provisional_credit = d.pop("provisional_credit")

        def _parse_arn(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        arn = _parse_arn(d.pop("arn"))

        def _parse_chargeback(data: object) -> None | SentStep:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                chargeback_type_0 = SentStep.from_dict(data)

                return chargeback_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SentStep, data)

        chargeback = _parse_chargeback(d.pop("chargeback"))

        def _parse_representment(data: object) -> None | Representment:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                representment_type_0 = Representment.from_dict(data)

                return representment_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Representment, data)

        representment = _parse_representment(d.pop("representment"))

        def _parse_pre_arbitration(data: object) -> None | SentStep:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                pre_arbitration_type_0 = SentStep.from_dict(data)

                return pre_arbitration_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SentStep, data)

        pre_arbitration = _parse_pre_arbitration(d.pop("pre_arbitration"))

        def _parse_deadline(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deadline_type_0 = datetime.date.fromisoformat(data)

                return deadline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        deadline = _parse_deadline(d.pop("deadline"))

        history = []
        _history = d.pop("history")
        for history_item_data in _history:
            history_item = HistoryStep.from_dict(history_item_data)

            history.append(history_item)

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        def _parse_resolved_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                resolved_at_type_0 = datetime.datetime.fromisoformat(data)

                return resolved_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        resolved_at = _parse_resolved_at(d.pop("resolved_at"))

        dispute_record = cls(
            uuid=uuid,
            transaction_uuid=transaction_uuid,
            amount=amount,
            currency=currency,
            reason=reason,
            reason_code=reason_code,
            explanation=explanation,
            status=status,
            evidence_attachment_uuids=evidence_attachment_uuids,
            credit_transaction_uuid=credit_transaction_uuid,
            provisional_credit=provisional_credit,
            arn=arn,
            chargeback=chargeback,
            representment=representment,
            pre_arbitration=pre_arbitration,
            deadline=deadline,
            history=history,
            created_at=created_at,
            updated_at=updated_at,
            resolved_at=resolved_at,
        )

        dispute_record.additional_properties = d
        return dispute_record

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
