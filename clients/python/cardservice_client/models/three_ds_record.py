from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ThreeDsRecord")


@_attrs_define
class ThreeDsRecord:
    """
    Example:
        {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'code': '482913', 'card_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'card_mask': 'example', 'merchant_name': 'example', 'amount': 12.5,
            'currency': 'EUR', 'created_at': '2026-03-19T10:15:00Z', 'expires_at': '2026-03-19T10:15:00Z'}

    Attributes:
        uuid (UUID):
        code (str):
        card_uuid (UUID):
        card_mask (str):
        merchant_name (str):
        amount (Decimal):
        currency (str):
        created_at (datetime.datetime):
        expires_at (datetime.datetime):
    """

    uuid: UUID
    code: str
    card_uuid: UUID
    card_mask: str
    merchant_name: str
    amount: Decimal
    currency: str
    created_at: datetime.datetime
    expires_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        uuid = str(self.uuid)

        code = self.code

        card_uuid = str(self.card_uuid)

        card_mask = self.card_mask

        merchant_name = self.merchant_name

        amount = self.amount

        currency = self.currency

        created_at = self.created_at.isoformat()

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uuid": uuid,
                "code": code,
                "card_uuid": card_uuid,
                "card_mask": card_mask,
                "merchant_name": merchant_name,
                "amount": amount,
                "currency": currency,
                "created_at": created_at,
                "expires_at": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        uuid = UUID(d.pop("uuid"))

        code = d.pop("code")

        card_uuid = UUID(d.pop("card_uuid"))

        card_mask = d.pop("card_mask")

        merchant_name = d.pop("merchant_name")

        amount = d.pop("amount")

        currency = d.pop("currency")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        three_ds_record = cls(
            uuid=uuid,
            code=code,
            card_uuid=card_uuid,
            card_mask=card_mask,
            merchant_name=merchant_name,
            amount=amount,
            currency=currency,
            created_at=created_at,
            expires_at=expires_at,
        )

        three_ds_record.additional_properties = d
        return three_ds_record

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
