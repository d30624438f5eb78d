from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="IncrementRequest")


@_attrs_define
class IncrementRequest:
    """
    Example:
        {'amount': 5}

    Attributes:
        amount (Decimal): How much to add to the hold (a JSON number, at most 2 decimals, > 0).
    """

    amount: Decimal

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        increment_request = cls(
            amount=amount,
        )

        return increment_request
