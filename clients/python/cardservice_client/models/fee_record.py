from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.fee_record_kind import FeeRecordKind

T = TypeVar("T", bound="FeeRecord")


@_attrs_define
class FeeRecord:
    """
    Example:
        {'slug': 'example', 'name': 'Ada Lovelace', 'kind': 'fixed', 'amount': 12.5, 'currency': 'EUR'}

    Attributes:
        slug (str):
        name (str):
        kind (FeeRecordKind):
        amount (Decimal):
        currency (None | str):
    """

    slug: str
    name: str
    kind: FeeRecordKind
    amount: Decimal
    currency: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        name = self.name

        kind = self.kind.value

        amount = self.amount

        currency: None | str
        currency = self.currency

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "slug": slug,
                "name": name,
                "kind": kind,
                "amount": amount,
                "currency": currency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        slug = d.pop("slug")

        name = d.pop("name")

        kind = FeeRecordKind(d.pop("kind"))

        amount = d.pop("amount")

        def _parse_currency(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        currency = _parse_currency(d.pop("currency"))

        fee_record = cls(
            slug=slug,
            name=name,
            kind=kind,
            amount=amount,
            currency=currency,
        )

        fee_record.additional_properties = d
        return fee_record

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
