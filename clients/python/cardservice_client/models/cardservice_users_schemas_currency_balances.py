from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CardserviceUsersSchemasCurrencyBalances")


@_attrs_define
class CardserviceUsersSchemasCurrencyBalances:
    """
    Example:
        {'currency': 'EUR', 'accounts_total': 12.5, 'cards_total': 12.5}

    Attributes:
        currency (str):
        accounts_total (Decimal):
        cards_total (Decimal):
    """

    currency: str
    accounts_total: Decimal
    cards_total: Decimal
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        currency = self.currency

        accounts_total = self.accounts_total

        cards_total = self.cards_total

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "currency": currency,
                "accounts_total": accounts_total,
                "cards_total": cards_total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        currency = d.pop("currency")

        accounts_total = d.pop("accounts_total")

        cards_total = d.pop("cards_total")

        cardservice_users_schemas_currency_balances = cls(
            currency=currency,
            accounts_total=accounts_total,
            cards_total=cards_total,
        )

        cardservice_users_schemas_currency_balances.additional_properties = d
        return cardservice_users_schemas_currency_balances

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
