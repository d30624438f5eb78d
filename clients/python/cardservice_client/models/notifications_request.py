from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="NotificationsRequest")


@_attrs_define
class NotificationsRequest:
    """PUT /user/notifications: any of the kinds, `true` or `false`; a kind left out stays.

    Example:
        {'sign_in': True, 'declined_payment': True, 'large_purchase': True, 'large_purchase_amount': 12.5,
            'team_request_decided': True, 'receipt_reminder': True, 'request_to_decide': True}

    Attributes:
        sign_in (bool | Unset): Not optional: only `true` is accepted.
        declined_payment (bool | Unset): A payment of one of your cards was declined.
        large_purchase (bool | Unset): `true` needs an amount: `large_purchase_amount` here or already chosen.
        large_purchase_amount (Decimal | None | Unset): The amount from which a purchase is mailed (compared in the
            purchase's currency);
            `null` clears it (then `large_purchase` must be off).
        team_request_decided (bool | Unset): Your team request was approved or declined.
        receipt_reminder (bool | Unset): The team's receipt policy asks for a purchase's receipt.
        request_to_decide (bool | Unset): (Team owners) a member asked for a card or more budget.
    """

    sign_in: bool | Unset = UNSET
    declined_payment: bool | Unset = UNSET
    large_purchase: bool | Unset = UNSET
    large_purchase_amount: Decimal | None | Unset = UNSET
    team_request_decided: bool | Unset = UNSET
    receipt_reminder: bool | Unset = UNSET
    request_to_decide: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        sign_in = self.sign_in

        declined_payment = self.declined_payment

        large_purchase = self.large_purchase

        large_purchase_amount: Decimal | None | Unset
        if isinstance(self.large_purchase_amount, Unset):
            large_purchase_amount = UNSET
        else:
            large_purchase_amount = self.large_purchase_amount

        team_request_decided = self.team_request_decided

        receipt_reminder = self.receipt_reminder

        request_to_decide = self.request_to_decide

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if sign_in is not UNSET:
            field_dict["sign_in"] = sign_in
        if declined_payment is not UNSET:
            field_dict["declined_payment"] = declined_payment
        if large_purchase is not UNSET:
            field_dict["large_purchase"] = large_purchase
        if large_purchase_amount is not UNSET:
            field_dict["large_purchase_amount"] = large_purchase_amount
        if team_request_decided is not UNSET:
            field_dict["team_request_decided"] = team_request_decided
        if receipt_reminder is not UNSET:
            field_dict["receipt_reminder"] = receipt_reminder
        if request_to_decide is not UNSET:
            field_dict["request_to_decide"] = request_to_decide

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        sign_in = d.pop("sign_in", UNSET)

        declined_payment = d.pop("declined_payment", UNSET)

        large_purchase = d.pop("large_purchase", UNSET)

        def _parse_large_purchase_amount(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        large_purchase_amount = _parse_large_purchase_amount(d.pop("large_purchase_amount", UNSET))

        team_request_decided = d.pop("team_request_decided", UNSET)

        receipt_reminder = d.pop("receipt_reminder", UNSET)

        request_to_decide = d.pop("request_to_decide", UNSET)

        notifications_request = cls(
            sign_in=sign_in,
            declined_payment=declined_payment,
            large_purchase=large_purchase,
            large_purchase_amount=large_purchase_amount,
            team_request_decided=team_request_decided,
            receipt_reminder=receipt_reminder,
            request_to_decide=request_to_decide,
        )

        return notifications_request
