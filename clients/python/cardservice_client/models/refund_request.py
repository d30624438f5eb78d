from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RefundRequest")


@_attrs_define
class RefundRequest:
    """
    Example:
        {'amount': 5}

    Attributes:
        amount (Decimal | None | Unset): How much to refund (a JSON number, at most 2 decimals, > 0), at most what was
            captured
            less earlier refunds; default: all of that.
    """

    amount: Decimal | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount: Decimal | None | Unset
        if isinstance(self.amount, Unset):
            amount = UNSET
        else:
            amount = self.amount

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if amount is not UNSET:
            field_dict["amount"] = amount

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_amount(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        amount = _parse_amount(d.pop("amount", UNSET))

        refund_request = cls(
            amount=amount,
        )

        return refund_request
