from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CaptureRequest")


@_attrs_define
class CaptureRequest:
    """
    Example:
        {'amount': 10, 'final': True}

    Attributes:
        amount (Decimal | None | Unset): What to capture (a foreign-currency purchase: in the merchant's currency);
            without it, all that is held.
        rate (Decimal | None | Unset): A foreign-currency purchase settled at another rate than authorized (merchant
            currency → card currency); the difference moves through the ledger.
        final (bool | Unset): false keeps what is not captured held for later captures; true (the default) releases it
            to the card at once. Default: True.
    """

    amount: Decimal | None | Unset = UNSET
    rate: Decimal | None | Unset = UNSET
    final: bool | Unset = True

    def to_dict(self) -> dict[str, Any]:
        amount: Decimal | None | Unset
        if isinstance(self.amount, Unset):
            amount = UNSET
        else:
            amount = self.amount

        rate: Decimal | None | Unset
        if isinstance(self.rate, Unset):
            rate = UNSET
        else:
            rate = self.rate

        final = self.final

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if amount is not UNSET:
            field_dict["amount"] = amount
        if rate is not UNSET:
            field_dict["rate"] = rate
        if final is not UNSET:
            field_dict["final"] = final

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

        def _parse_rate(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        rate = _parse_rate(d.pop("rate", UNSET))

        final = d.pop("final", UNSET)

        capture_request = cls(
            amount=amount,
            rate=rate,
            final=final,
        )

        return capture_request
