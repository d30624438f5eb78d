from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.member_ref import MemberRef


T = TypeVar("T", bound="BudgetRecord")


@_attrs_define
class BudgetRecord:
    """
    Example:
        {'member': {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace'}, 'currency': 'EUR',
            'amount': 12.5, 'monthly_amount': 12.5, 'spent': 12.5, 'remaining': 12.5, 'month': 'example'}

    Attributes:
        member (MemberRef):  Example: {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace'}.
        currency (str):
        amount (Decimal): this month's budget: the monthly amount plus the increases approved for this month
        monthly_amount (Decimal): the budget of every month
        spent (Decimal): the member's card purchases in this currency this UTC month, approved (held or captured) less
            released or refunded
        remaining (Decimal): `amount - spent`; below 0 only when a purchase that is never refused (a stand-in, a force
            post) went past
        month (str): the UTC calendar month, `YYYY-MM`
    """

    member: MemberRef
    currency: str
    amount: Decimal
    monthly_amount: Decimal
    spent: Decimal
    remaining: Decimal
    month: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        member = self.member.to_dict()

        currency = self.currency

        amount = self.amount

        monthly_amount = self.monthly_amount

        spent = self.spent

        remaining = self.remaining

        month = self.month

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "member": member,
                "currency": currency,
                "amount": amount,
                "monthly_amount": monthly_amount,
                "spent": spent,
                "remaining": remaining,
                "month": month,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.member_ref import MemberRef  # noqa: PLC0415

        d = dict(src_dict)
        member = MemberRef.from_dict(d.pop("member"))

        currency = d.pop("currency")

        amount = d.pop("amount")

        monthly_amount = d.pop("monthly_amount")

        spent = d.pop("spent")

        remaining = d.pop("remaining")

        month = d.pop("month")

        budget_record = cls(
            member=member,
            currency=currency,
            amount=amount,
            monthly_amount=monthly_amount,
            spent=spent,
            remaining=remaining,
            month=month,
        )

        budget_record.additional_properties = d
        return budget_record

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
