from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.topup_record_status import TopupRecordStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.pay_to_line import PayToLine


T = TypeVar("T", bound="TopupRecord")


@_attrs_define
class TopupRecord:
    """
    Example:
        {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30',
            'status': 'awaiting_payment', 'reference': 'example', 'method': 'example', 'amount': 12.5, 'currency': 'EUR',
            'fee': 12.5, 'rate': 12.5, 'credit_amount': 12.5, 'account_currency': 'example', 'received_amount': 12.5,
            'transaction_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'expires_at': '2026-03-19T10:15:00Z', 'created_at':
            '2026-03-19T10:15:00Z', 'updated_at': '2026-03-19T10:15:00Z', 'pay_to': [{'label': 'example', 'value':
            'example'}]}

    Attributes:
        uuid (UUID):
        account_uuid (UUID):
        status (TopupRecordStatus):
        reference (str):
        method (str):
        amount (Decimal):
        currency (str):
        fee (Decimal):
        rate (Decimal):
        credit_amount (Decimal):
        account_currency (str):
        received_amount (Decimal | None):
        transaction_uuid (None | UUID):
        expires_at (datetime.datetime):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        pay_to (list[PayToLine] | Unset): where to pay: the program's payment details for this method and currency, in
            order (docs/operations.md#where-top-ups-are-paid); empty when the program set none
    """

    uuid: UUID
    account_uuid: UUID
    status: TopupRecordStatus
    reference: str
    method: str
    amount: Decimal
    currency: str
    fee: Decimal
    rate: Decimal
    credit_amount: Decimal
    account_currency: str
    received_amount: Decimal | None
    transaction_uuid: None | UUID
    expires_at: datetime.datetime
    created_at: datetime.datetime
    updated_at: datetime.datetime
    pay_to: list[PayToLine] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        uuid = str(self.uuid)

        account_uuid = str(self.account_uuid)

        status = self.status.value

        reference = self.reference

        method = self.method

        amount = self.amount

        currency = self.currency

        fee = self.fee

        rate = self.rate

        credit_amount = self.credit_amount

        account_currency = self.account_currency

        received_amount: Decimal | None
        received_amount = self.received_amount

        transaction_uuid: None | str
        if isinstance(self.transaction_uuid, UUID):
            transaction_uuid = str(self.transaction_uuid)
        else:
            transaction_uuid = self.transaction_uuid

        expires_at = self.expires_at.isoformat()

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        pay_to: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.pay_to, Unset):
            pay_to = []
            for pay_to_item_data in self.pay_to:
                pay_to_item = pay_to_item_data.to_dict()
                pay_to.append(pay_to_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uuid": uuid,
                "account_uuid": account_uuid,
                "status": status,
                "reference": reference,
                "method": method,
                "amount": amount,
                "currency": currency,
                "fee": fee,
                "rate": rate,
                "credit_amount": credit_amount,
                "account_currency": account_currency,
                "received_amount": received_amount,
                "transaction_uuid": transaction_uuid,
                "expires_at": expires_at,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )
        if pay_to is not UNSET:
            field_dict["pay_to"] = pay_to

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.pay_to_line import PayToLine  # noqa: PLC0415

        d = dict(src_dict)
        uuid = UUID(d.pop("uuid"))

        account_uuid = UUID(d.pop("account_uuid"))

        status = TopupRecordStatus(d.pop("status"))

        reference = d.pop("reference")

        method = d.pop("method")

        amount = d.pop("amount")

        currency = d.pop("currency")

        fee = d.pop("fee")

        rate = d.pop("rate")

        credit_amount = d.pop("credit_amount")

        account_currency = d.pop("account_currency")

        def _parse_received_amount(data: object) -> Decimal | None:
            if data is None:
                return data
            return cast(Decimal | None, data)

        received_amount = _parse_received_amount(d.pop("received_amount"))

        def _parse_transaction_uuid(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                transaction_uuid_type_0 = UUID(data)

                return transaction_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        transaction_uuid = _parse_transaction_uuid(d.pop("transaction_uuid"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        _pay_to = d.pop("pay_to", UNSET)
        pay_to: list[PayToLine] | Unset = UNSET
        if _pay_to is not UNSET:
            pay_to = []
            for pay_to_item_data in _pay_to:
                pay_to_item = PayToLine.from_dict(pay_to_item_data)

                pay_to.append(pay_to_item)

        topup_record = cls(
            uuid=uuid,
            account_uuid=account_uuid,
            status=status,
            reference=reference,
            method=method,
            amount=amount,
            currency=currency,
            fee=fee,
            rate=rate,
            credit_amount=credit_amount,
            account_currency=account_currency,
            received_amount=received_amount,
            transaction_uuid=transaction_uuid,
            expires_at=expires_at,
            created_at=created_at,
            updated_at=updated_at,
            pay_to=pay_to,
        )

        topup_record.additional_properties = d
        return topup_record

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
