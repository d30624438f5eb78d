from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.member_ref import MemberRef


T = TypeVar("T", bound="MissingReceipt")


@_attrs_define
class MissingReceipt:
    """
    Example:
        {'transaction_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'member': {'uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace'}, 'card_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'amount': 12.5, 'currency': 'EUR', 'merchant_name': 'example',
            'captured_at': '2026-03-19T10:15:00Z', 'reminded': True, 'card_frozen': True}

    Attributes:
        transaction_uuid (UUID):
        member (MemberRef):  Example: {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace'}.
        card_uuid (UUID):
        amount (Decimal):
        currency (str):
        merchant_name (None | str):
        captured_at (datetime.datetime):
        reminded (bool): `transaction.receipt_missing` was sent
        card_frozen (bool): its card is frozen for missing receipts
    """

    transaction_uuid: UUID
    member: MemberRef
    card_uuid: UUID
    amount: Decimal
    currency: str
    merchant_name: None | str
    captured_at: datetime.datetime
    reminded: bool
    card_frozen: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        transaction_uuid = str(self.transaction_uuid)

        member = self.member.to_dict()

        card_uuid = str(self.card_uuid)

        amount = self.amount

        currency = self.currency

        merchant_name: None | str
        merchant_name = self.merchant_name

        captured_at = self.captured_at.isoformat()

        reminded = self.reminded

        card_frozen = self.card_frozen

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "transaction_uuid": transaction_uuid,
                "member": member,
                "card_uuid": card_uuid,
                "amount": amount,
                "currency": currency,
                "merchant_name": merchant_name,
                "captured_at": captured_at,
                "reminded": reminded,
                "card_frozen": card_frozen,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.member_ref import MemberRef  # noqa: PLC0415

        d = dict(src_dict)
        transaction_uuid = UUID(d.pop("transaction_uuid"))

        member = MemberRef.from_dict(d.pop("member"))

        card_uuid = UUID(d.pop("card_uuid"))

        amount = d.pop("amount")

        currency = d.pop("currency")

        def _parse_merchant_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        merchant_name = _parse_merchant_name(d.pop("merchant_name"))

        captured_at = datetime.datetime.fromisoformat(d.pop("captured_at"))

        reminded = d.pop("reminded")

        card_frozen = d.pop("card_frozen")

        missing_receipt = cls(
            transaction_uuid=transaction_uuid,
            member=member,
            card_uuid=card_uuid,
            amount=amount,
            currency=currency,
            merchant_name=merchant_name,
            captured_at=captured_at,
            reminded=reminded,
            card_frozen=card_frozen,
        )

        missing_receipt.additional_properties = d
        return missing_receipt

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
