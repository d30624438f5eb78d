from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="DepositRequest")


@_attrs_define
class DepositRequest:
    """
    Example:
        {'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'amount': 12.5}

    Attributes:
        account_uuid (str):
        amount (Decimal):
    """

    account_uuid: str
    amount: Decimal

    def to_dict(self) -> dict[str, Any]:
        account_uuid = self.account_uuid

        amount = self.amount

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "account_uuid": account_uuid,
                "amount": amount,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        account_uuid = d.pop("account_uuid")

        amount = d.pop("amount")

        deposit_request = cls(
            account_uuid=account_uuid,
            amount=amount,
        )

        return deposit_request
