from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MoneyRequest")


@_attrs_define
class MoneyRequest:
    """A credit or a debit: idempotent by `external_id`.

    Example:
        {'amount': 250, 'external_id': 'wire-2026-03-19-0042', 'description': 'Wire transfer from Ada Lovelace'}

    Attributes:
        amount (Decimal): How much, in the account's currency (a JSON number, at most 2 decimals, > 0).
        external_id (str): Your reference for this movement (a bank transfer's id), the idempotency key: the same
            body again returns the same transaction; another body → 409.
        description (None | str | Unset): Shown on the transaction and the statement.
    """

    amount: Decimal
    external_id: str
    description: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        external_id = self.external_id

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "external_id": external_id,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        external_id = d.pop("external_id")

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        money_request = cls(
            amount=amount,
            external_id=external_id,
            description=description,
        )

        return money_request
