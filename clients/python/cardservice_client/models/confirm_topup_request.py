from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ConfirmTopupRequest")


@_attrs_define
class ConfirmTopupRequest:
    """
    Example:
        {'received_amount': 500}

    Attributes:
        received_amount (Decimal): What actually arrived, in the top-up's currency (a JSON number, at most 2 decimals, >
            0);
            the credit is computed from it.
    """

    received_amount: Decimal

    def to_dict(self) -> dict[str, Any]:
        received_amount = self.received_amount

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "received_amount": received_amount,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        received_amount = d.pop("received_amount")

        confirm_topup_request = cls(
            received_amount=received_amount,
        )

        return confirm_topup_request
