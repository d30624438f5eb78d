from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="ThreeDsRequest")


@_attrs_define
class ThreeDsRequest:
    """
    Example:
        {'card_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'merchant_name': 'Booking.com', 'amount': 189, 'currency':
            'USD'}

    Attributes:
        card_uuid (str | UUID): One of the caller's cards.
        merchant_name (str): The merchant the code is for, 1..120 characters.
        amount (Decimal): The purchase amount the code confirms (a JSON number, at most 2 decimals, > 0).
        currency (str): The purchase currency, ISO 4217.
    """

    card_uuid: str | UUID
    merchant_name: str
    amount: Decimal
    currency: str

    def to_dict(self) -> dict[str, Any]:
        card_uuid: str
        if isinstance(self.card_uuid, UUID):
            card_uuid = str(self.card_uuid)
        else:
            card_uuid = self.card_uuid

        merchant_name = self.merchant_name

        amount = self.amount

        currency = self.currency

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "card_uuid": card_uuid,
                "merchant_name": merchant_name,
                "amount": amount,
                "currency": currency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_card_uuid(data: object) -> str | UUID:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                card_uuid_type_0 = UUID(data)

                return card_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | UUID, data)

        card_uuid = _parse_card_uuid(d.pop("card_uuid"))

        merchant_name = d.pop("merchant_name")

        amount = d.pop("amount")

        currency = d.pop("currency")

        three_ds_request = cls(
            card_uuid=card_uuid,
            merchant_name=merchant_name,
            amount=amount,
            currency=currency,
        )

        return three_ds_request
