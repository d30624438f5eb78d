from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="TopupRequest")


@_attrs_define
class TopupRequest:
    """
    Example:
        {'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'method': 'bank-transfer', 'currency': 'USD', 'amount':
            500}

    Attributes:
        account_uuid (str | UUID): The caller's account to credit.
        method (str): A payment method slug (`bank-transfer`, `crypto`, `card`).
        currency (str): What the payer sends: a `code` of `GET /payment/currencies/{slug}` for that method
            (`USD`, `USDT`).
        amount (Decimal): How much the payer sends, in `currency` (a JSON number, at most 2 decimals), within the
            method's `min_amount`..`max_amount`.
    """

    account_uuid: str | UUID
    method: str
    currency: str
    amount: Decimal

    def to_dict(self) -> dict[str, Any]:
        account_uuid: str
        if isinstance(self.account_uuid, UUID):
            account_uuid = str(self.account_uuid)
        else:
            account_uuid = self.account_uuid

        method = self.method

        currency = self.currency

        amount = self.amount

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "account_uuid": account_uuid,
                "method": method,
                "currency": currency,
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

        method = d.pop("method")

        currency = d.pop("currency")

        amount = d.pop("amount")

        topup_request = cls(
            account_uuid=account_uuid,
            method=method,
            currency=currency,
            amount=amount,
        )

        return topup_request
