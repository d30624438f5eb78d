from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReceiptPolicyRecord")


@_attrs_define
class ReceiptPolicyRecord:
    """
    Example:
        {'min_amount': 12.5, 'currency': 'EUR', 'remind_after_days': 1, 'freeze_after_days': 1, 'created_at':
            '2026-03-19T10:15:00Z', 'updated_at': '2026-03-19T10:15:00Z'}

    Attributes:
        min_amount (Decimal):
        currency (str):
        remind_after_days (int):
        freeze_after_days (int):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    min_amount: Decimal
    currency: str
    remind_after_days: int
    freeze_after_days: int
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        min_amount = self.min_amount

        currency = self.currency

        remind_after_days = self.remind_after_days

        freeze_after_days = self.freeze_after_days

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "min_amount": min_amount,
                "currency": currency,
                "remind_after_days": remind_after_days,
                "freeze_after_days": freeze_after_days,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        min_amount = d.pop("min_amount")

        currency = d.pop("currency")

        remind_after_days = d.pop("remind_after_days")

        freeze_after_days = d.pop("freeze_after_days")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        receipt_policy_record = cls(
            min_amount=min_amount,
            currency=currency,
            remind_after_days=remind_after_days,
            freeze_after_days=freeze_after_days,
            created_at=created_at,
            updated_at=updated_at,
        )

        receipt_policy_record.additional_properties = d
        return receipt_policy_record

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
