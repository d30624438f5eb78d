from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ReceiptPolicyRequest")


@_attrs_define
class ReceiptPolicyRequest:
    """
    Example:
        {'min_amount': 25, 'currency': 'USD', 'remind_after_days': 3, 'freeze_after_days': 14}

    Attributes:
        min_amount (Decimal): Purchases of at least this much (in `currency`) need a receipt.
        currency (str): The currency of `min_amount`; purchases in it are chased.
        remind_after_days (int): Days after capture before `transaction.receipt_missing` is sent (0..365).
        freeze_after_days (int): Days after capture before the card is frozen (≥ `remind_after_days`, ≤ 365).
    """

    min_amount: Decimal
    currency: str
    remind_after_days: int
    freeze_after_days: int

    def to_dict(self) -> dict[str, Any]:
        min_amount = self.min_amount

        currency = self.currency

        remind_after_days = self.remind_after_days

        freeze_after_days = self.freeze_after_days

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "min_amount": min_amount,
                "currency": currency,
                "remind_after_days": remind_after_days,
                "freeze_after_days": freeze_after_days,
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

        receipt_policy_request = cls(
            min_amount=min_amount,
            currency=currency,
            remind_after_days=remind_after_days,
            freeze_after_days=freeze_after_days,
        )

        return receipt_policy_request
