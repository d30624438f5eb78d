from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="AcsCodeRequest")


@_attrs_define
class AcsCodeRequest:
    """
    Example:
        {'pan': '4242424242424242', 'code': '482913', 'merchant_name': 'Booking.com', 'amount': 189, 'currency': 'USD',
            'expires_in': 600}

    Attributes:
        pan (str): The card's full number, 12..19 digits (never echoed, never logged). Example: 4000001234567899.
        code (str): The one-time code, 6 digits, as the ACS sent it to the cardholder.
        merchant_name (str): The merchant the code is for, 1..120 characters (shown to the cardholder).
        amount (Decimal): The purchase amount the code confirms (a JSON number, at most 2 decimals, > 0).
        currency (str): The purchase currency, ISO 4217 (`EUR`).
        expires_in (int | Unset): seconds Default: 600.
    """

    pan: str
    code: str
    merchant_name: str
    amount: Decimal
    currency: str
    expires_in: int | Unset = 600

    def to_dict(self) -> dict[str, Any]:
        pan = self.pan

        code = self.code

        merchant_name = self.merchant_name

        amount = self.amount

        currency = self.currency

        expires_in = self.expires_in

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "pan": pan,
                "code": code,
                "merchant_name": merchant_name,
                "amount": amount,
                "currency": currency,
            }
        )
        if expires_in is not UNSET:
            field_dict["expires_in"] = expires_in

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        pan = d.pop("pan")

        code = d.pop("code")

        merchant_name = d.pop("merchant_name")

        amount = d.pop("amount")

        currency = d.pop("currency")

        expires_in = d.pop("expires_in", UNSET)

        acs_code_request = cls(
            pan=pan,
            code=code,
            merchant_name=merchant_name,
            amount=amount,
            currency=currency,
            expires_in=expires_in,
        )

        return acs_code_request
