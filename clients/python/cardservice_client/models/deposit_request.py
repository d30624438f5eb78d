from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="DepositRequest")


@_attrs_define
class DepositRequest:
    """
    Example:
        {'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'amount': 250}

    Attributes:
        account_uuid (str | UUID): One of the caller's accounts.
        amount (Decimal): How much arrives, in the account's currency (a JSON number, at most 2 decimals, > 0).
    """

    account_uuid: str | UUID
    amount: Decimal

    def to_dict(self) -> dict[str, Any]:
        account_uuid: str
        if isinstance(self.account_uuid, UUID):
            account_uuid = str(self.account_uuid)
        else:
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

        def _parse_account_uuid(data: object) -> str | UUID:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                account_uuid_type_0 = UUID(data)

                return account_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | UUID, data)

        account_uuid = _parse_account_uuid(d.pop("account_uuid"))

        amount = d.pop("amount")

        deposit_request = cls(
            account_uuid=account_uuid,
            amount=amount,
        )

        return deposit_request
