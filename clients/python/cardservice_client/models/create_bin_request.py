from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.create_bin_request_brand import CreateBinRequestBrand
from ..models.create_bin_request_status import CreateBinRequestStatus

T = TypeVar("T", bound="CreateBinRequest")


@_attrs_define
class CreateBinRequest:
    """
    Example:
        {'bin': '45717360', 'brand': 'visa', 'currency': 'USD', 'status': 'available', 'card_price': 2.5}

    Attributes:
        bin (str): The range's first 6 to 8 digits, as text (`"45717360"`): a Visa BIN starts with 4, a
            Mastercard BIN with 51–55 or 2221–2720. One already issued from, or overlapping one (a
            prefix of it, or it a prefix of this), → 409 `bin_taken`.
        brand (CreateBinRequestBrand): The card network of the range.
        currency (str): The currency of its cards: one of the service's account currencies (ISO 4217).
        status (CreateBinRequestStatus): `available`: cards can be bought on it; `unavailable`: listed, not sold.
        card_price (Decimal): The price of a card on it, in its currency (≥ 0, at most 2 decimals): the `card_issue`
            fee its buyers pay instead of the fee schedule's.
    """

    bin: str
    brand: CreateBinRequestBrand
    currency: str
    status: CreateBinRequestStatus
    card_price: Decimal

    def to_dict(self) -> dict[str, Any]:
        bin = self.bin

        brand = self.brand.value

        currency = self.currency

        status = self.status.value

        card_price = self.card_price

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "bin": bin,
                "brand": brand,
                "currency": currency,
                "status": status,
                "card_price": card_price,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bin = d.pop("bin")

        brand = CreateBinRequestBrand(d.pop("brand"))

        currency = d.pop("currency")

        status = CreateBinRequestStatus(d.pop("status"))

        card_price = d.pop("card_price")

        create_bin_request = cls(
            bin=bin,
            brand=brand,
            currency=currency,
            status=status,
            card_price=card_price,
        )

        return create_bin_request
