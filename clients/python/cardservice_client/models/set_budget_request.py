from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SetBudgetRequest")


@_attrs_define
class SetBudgetRequest:
    """
    Example:
        {'amount': 500, 'currency': 'USD'}

    Attributes:
        amount (Decimal): The monthly budget, > 0, at most 2 decimals.
        currency (str): A currency the member holds an account in.
    """

    amount: Decimal
    currency: str

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        currency = self.currency

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "currency": currency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        currency = d.pop("currency")

        set_budget_request = cls(
            amount=amount,
            currency=currency,
        )

        return set_budget_request
