from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.class_balance import ClassBalance


T = TypeVar("T", bound="CardserviceOperatorBooksRoutesCurrencyBalances")


@_attrs_define
class CardserviceOperatorBooksRoutesCurrencyBalances:
    """
    Example:
        {'currency': 'EUR', 'balances': [{'class': 'example', 'balance': 'example'}]}

    Attributes:
        currency (str):
        balances (list[ClassBalance]):
    """

    currency: str
    balances: list[ClassBalance]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        currency = self.currency

        balances = []
        for balances_item_data in self.balances:
            balances_item = balances_item_data.to_dict()
            balances.append(balances_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "currency": currency,
                "balances": balances,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.class_balance import ClassBalance  # noqa: PLC0415

        d = dict(src_dict)
        currency = d.pop("currency")

        balances = []
        _balances = d.pop("balances")
        for balances_item_data in _balances:
            balances_item = ClassBalance.from_dict(balances_item_data)

            balances.append(balances_item)

        cardservice_operator_books_routes_currency_balances = cls(
            currency=currency,
            balances=balances,
        )

        cardservice_operator_books_routes_currency_balances.additional_properties = d
        return cardservice_operator_books_routes_currency_balances

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
