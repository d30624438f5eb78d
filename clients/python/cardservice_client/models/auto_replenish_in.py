from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="AutoReplenishIn")


@_attrs_define
class AutoReplenishIn:
    """`enabled: true` needs `amount` and `min_balance`; `enabled: false` turns it off.

    Example:
        {'enabled': True, 'amount': 50, 'min_balance': 10}

    Attributes:
        enabled (bool): `true` turns auto-replenish on (then `amount` and `min_balance` are required); `false`
            turns it off (send no amounts).
        amount (Decimal | None | Unset): How much moves from the account to the card each time (a JSON number, at most 2
            decimals,
            > 0).
        min_balance (Decimal | None | Unset): The card balance strictly under which it is replenished (a JSON number, at
            most 2
            decimals, ≥ 0).
    """

    enabled: bool
    amount: Decimal | None | Unset = UNSET
    min_balance: Decimal | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        amount: Decimal | None | Unset
        if isinstance(self.amount, Unset):
            amount = UNSET
        else:
            amount = self.amount

        min_balance: Decimal | None | Unset
        if isinstance(self.min_balance, Unset):
            min_balance = UNSET
        else:
            min_balance = self.min_balance

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "enabled": enabled,
            }
        )
        if amount is not UNSET:
            field_dict["amount"] = amount
        if min_balance is not UNSET:
            field_dict["min_balance"] = min_balance

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        enabled = d.pop("enabled")

        def _parse_amount(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        amount = _parse_amount(d.pop("amount", UNSET))

        def _parse_min_balance(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        min_balance = _parse_min_balance(d.pop("min_balance", UNSET))

        auto_replenish_in = cls(
            enabled=enabled,
            amount=amount,
            min_balance=min_balance,
        )

        return auto_replenish_in
