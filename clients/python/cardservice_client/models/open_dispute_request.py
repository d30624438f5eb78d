from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.open_dispute_request_reason import OpenDisputeRequestReason
from ..types import UNSET, Unset

T = TypeVar("T", bound="OpenDisputeRequest")


@_attrs_define
class OpenDisputeRequest:
    """
    Example:
        {'transaction_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'reason': 'not_received', 'explanation': 'Ordered
            on 3 March; nothing arrived.'}

    Attributes:
        transaction_uuid (str | UUID): A completed `card_purchase` of the caller, captured within the last 120 days.
        reason (OpenDisputeRequestReason): Why: `fraudulent`, `not_received`, `duplicate`, `canceled`,
            `not_as_described` or
            `other`.
        explanation (None | str | Unset): What happened, in the cardholder's words, 1..2000 characters.
        evidence_attachment_uuids (list[str | UUID] | None | Unset): Uuids of the caller's attachments (`POST
            /attachment`) that support the dispute.
        amount (Decimal | None | Unset): default: the captured amount less refunds and credits
    """

    transaction_uuid: str | UUID
    reason: OpenDisputeRequestReason
    explanation: None | str | Unset = UNSET
    evidence_attachment_uuids: list[str | UUID] | None | Unset = UNSET
    amount: Decimal | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        transaction_uuid: str
        if isinstance(self.transaction_uuid, UUID):
            transaction_uuid = str(self.transaction_uuid)
        else:
            transaction_uuid = self.transaction_uuid

        reason = self.reason.value

        explanation: None | str | Unset
        if isinstance(self.explanation, Unset):
            explanation = UNSET
        else:
            explanation = self.explanation

        evidence_attachment_uuids: list[str] | None | Unset
        if isinstance(self.evidence_attachment_uuids, Unset):
            evidence_attachment_uuids = UNSET
        elif isinstance(self.evidence_attachment_uuids, list):
            evidence_attachment_uuids = []
            for evidence_attachment_uuids_type_0_item_data in self.evidence_attachment_uuids:
                evidence_attachment_uuids_type_0_item: str
                if isinstance(evidence_attachment_uuids_type_0_item_data, UUID):
                    evidence_attachment_uuids_type_0_item = str(evidence_attachment_uuids_type_0_item_data)
                else:
                    evidence_attachment_uuids_type_0_item = evidence_attachment_uuids_type_0_item_data
                evidence_attachment_uuids.append(evidence_attachment_uuids_type_0_item)

        else:
            evidence_attachment_uuids = self.evidence_attachment_uuids

        amount: Decimal | None | Unset
        if isinstance(self.amount, Unset):
            amount = UNSET
        else:
            amount = self.amount

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "transaction_uuid": transaction_uuid,
                "reason": reason,
            }
        )
        if explanation is not UNSET:
            field_dict["explanation"] = explanation
        if evidence_attachment_uuids is not UNSET:
            field_dict["evidence_attachment_uuids"] = evidence_attachment_uuids
        if amount is not UNSET:
            field_dict["amount"] = amount

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_transaction_uuid(data: object) -> str | UUID:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                transaction_uuid_type_0 = UUID(data)

                return transaction_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | UUID, data)

        transaction_uuid = _parse_transaction_uuid(d.pop("transaction_uuid"))

        reason = OpenDisputeRequestReason(d.pop("reason"))

        def _parse_explanation(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        explanation = _parse_explanation(d.pop("explanation", UNSET))

        def _parse_evidence_attachment_uuids(data: object) -> list[str | UUID] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                evidence_attachment_uuids_type_0 = []
                _evidence_attachment_uuids_type_0 = data
                for evidence_attachment_uuids_type_0_item_data in _evidence_attachment_uuids_type_0:

                    def _parse_evidence_attachment_uuids_type_0_item(data: object) -> str | UUID:
                        try:
                            if not isinstance(data, str):
                                raise TypeError()
                            evidence_attachment_uuids_type_0_item_type_0 = UUID(data)

                            return evidence_attachment_uuids_type_0_item_type_0
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        return cast(str | UUID, data)

                    evidence_attachment_uuids_type_0_item = _parse_evidence_attachment_uuids_type_0_item(
                        evidence_attachment_uuids_type_0_item_data
                    )

                    evidence_attachment_uuids_type_0.append(evidence_attachment_uuids_type_0_item)

                return evidence_attachment_uuids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str | UUID] | None | Unset, data)

        evidence_attachment_uuids = _parse_evidence_attachment_uuids(d.pop("evidence_attachment_uuids", UNSET))

        def _parse_amount(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        amount = _parse_amount(d.pop("amount", UNSET))

        open_dispute_request = cls(
            transaction_uuid=transaction_uuid,
            reason=reason,
            explanation=explanation,
            evidence_attachment_uuids=evidence_attachment_uuids,
            amount=amount,
        )

        return open_dispute_request
