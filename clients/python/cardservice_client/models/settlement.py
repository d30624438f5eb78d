from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.count_amount import CountAmount


T = TypeVar("T", bound="Settlement")


@_attrs_define
class Settlement:
    """
    Example:
        {'currency': 'EUR', 'date': 'example', 'captures': {'count': 1, 'amount': 'example'}, 'refunds': {'count': 1,
            'amount': 'example'}, 'dispute_credits': {'count': 1, 'amount': 'example'}, 'chargebacks': {'count': 1,
            'amount': 'example'}, 'representments': {'count': 1, 'amount': 'example'}, 'net': 'example'}

    Attributes:
        currency (str):
        date (str):
        captures (CountAmount):  Example: {'count': 1, 'amount': 'example'}.
        refunds (CountAmount):  Example: {'count': 1, 'amount': 'example'}.
        dispute_credits (CountAmount):  Example: {'count': 1, 'amount': 'example'}.
        chargebacks (CountAmount):  Example: {'count': 1, 'amount': 'example'}.
        representments (CountAmount):  Example: {'count': 1, 'amount': 'example'}.
        net (str):
    """

    currency: str
    date: str
    captures: CountAmount
    refunds: CountAmount
    dispute_credits: CountAmount
    chargebacks: CountAmount
    representments: CountAmount
    net: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        currency = self.currency

        date = self.date

        captures = self.captures.to_dict()

        refunds = self.refunds.to_dict()

        dispute_credits = self.dispute_credits.to_dict()

        chargebacks = self.chargebacks.to_dict()

        representments = self.representments.to_dict()

        net = self.net

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "currency": currency,
                "date": date,
                "captures": captures,
                "refunds": refunds,
                "dispute_credits": dispute_credits,
                "chargebacks": chargebacks,
                "representments": representments,
                "net": net,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.count_amount import CountAmount  # noqa: PLC0415

        d = dict(src_dict)
        currency = d.pop("currency")

        date = d.pop("date")

        captures = CountAmount.from_dict(d.pop("captures"))

        refunds = CountAmount.from_dict(d.pop("refunds"))

        dispute_credits = CountAmount.from_dict(d.pop("dispute_credits"))

        chargebacks = CountAmount.from_dict(d.pop("chargebacks"))

        representments = CountAmount.from_dict(d.pop("representments"))

        net = d.pop("net")

        settlement = cls(
            currency=currency,
            date=date,
            captures=captures,
            refunds=refunds,
            dispute_credits=dispute_credits,
            chargebacks=chargebacks,
            representments=representments,
            net=net,
        )

        settlement.additional_properties = d
        return settlement

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
