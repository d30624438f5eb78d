from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="NotificationsRecord")


@_attrs_define
class NotificationsRecord:
    """
    Example:
        {'sign_in': True, 'declined_payment': True, 'large_purchase': True, 'large_purchase_amount': 12.5,
            'team_request_decided': True, 'receipt_reminder': True, 'request_to_decide': True}

    Attributes:
        sign_in (bool): always true: a sign-in link asked for is always mailed
        declined_payment (bool): a payment of one of your cards was declined
        large_purchase (bool): a purchase of at least `large_purchase_amount` (in its own currency)
        large_purchase_amount (Decimal | None): from which amount a purchase is mailed; null: none chosen
        team_request_decided (bool): your team request was approved or declined
        receipt_reminder (bool): the team's receipt policy asks for a receipt
        request_to_decide (bool): (team owners) a member asked for something
    """

    sign_in: bool
    declined_payment: bool
    large_purchase: bool
    large_purchase_amount: Decimal | None
    team_request_decided: bool
    receipt_reminder: bool
    request_to_decide: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        sign_in = self.sign_in

        declined_payment = self.declined_payment

        large_purchase = self.large_purchase

        large_purchase_amount: Decimal | None
        large_purchase_amount = self.large_purchase_amount

        team_request_decided = self.team_request_decided

        receipt_reminder = self.receipt_reminder

        request_to_decide = self.request_to_decide

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "sign_in": sign_in,
                "declined_payment": declined_payment,
                "large_purchase": large_purchase,
                "large_purchase_amount": large_purchase_amount,
                "team_request_decided": team_request_decided,
                "receipt_reminder": receipt_reminder,
                "request_to_decide": request_to_decide,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        sign_in = d.pop("sign_in")

        declined_payment = d.pop("declined_payment")

        large_purchase = d.pop("large_purchase")

        def _parse_large_purchase_amount(data: object) -> Decimal | None:
            if data is None:
                return data
            return cast(Decimal | None, data)

        large_purchase_amount = _parse_large_purchase_amount(d.pop("large_purchase_amount"))

        team_request_decided = d.pop("team_request_decided")

        receipt_reminder = d.pop("receipt_reminder")

        request_to_decide = d.pop("request_to_decide")

        notifications_record = cls(
            sign_in=sign_in,
            declined_payment=declined_payment,
            large_purchase=large_purchase,
            large_purchase_amount=large_purchase_amount,
            team_request_decided=team_request_decided,
            receipt_reminder=receipt_reminder,
            request_to_decide=request_to_decide,
        )

        notifications_record.additional_properties = d
        return notifications_record

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
