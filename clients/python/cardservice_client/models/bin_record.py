from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.bin_record_status import BinRecordStatus

T = TypeVar("T", bound="BinRecord")


@_attrs_define
class BinRecord:
    """
    Example:
        {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'bin': '424242', 'brand': 'visa', 'currency': 'EUR', 'status':
            'available', 'card_price': 12.5}

    Attributes:
        uuid (UUID):
        bin (str):
        brand (str):
        currency (str):
        status (BinRecordStatus):
        card_price (Decimal | None): The price of a card on this BIN, in its currency: the `card_issue` fee of
            `/dictionary/fees` for cards bought on it; `null`: the fee schedule's `card_issue`.
    """

    uuid: UUID
    bin: str
    brand: str
    currency: str
    status: BinRecordStatus
    card_price: Decimal | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        uuid = str(self.uuid)

        bin = self.bin

        brand = self.brand

        currency = self.currency

        status = self.status.value

        card_price: Decimal | None
        card_price = self.card_price

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uuid": uuid,
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
        uuid = UUID(d.pop("uuid"))

        bin = d.pop("bin")

        brand = d.pop("brand")

        currency = d.pop("currency")

        status = BinRecordStatus(d.pop("status"))

        def _parse_card_price(data: object) -> Decimal | None:
            if data is None:
                return data
            return cast(Decimal | None, data)

        card_price = _parse_card_price(d.pop("card_price"))

        bin_record = cls(
            uuid=uuid,
            bin=bin,
            brand=brand,
            currency=currency,
            status=status,
            card_price=card_price,
        )

        bin_record.additional_properties = d
        return bin_record

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
