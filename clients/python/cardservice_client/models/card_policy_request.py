from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.card_policy_request_member_cards import CardPolicyRequestMemberCards

T = TypeVar("T", bound="CardPolicyRequest")


@_attrs_define
class CardPolicyRequest:
    """
    Example:
        {'member_cards': 'direct'}

    Attributes:
        member_cards (CardPolicyRequestMemberCards): `direct`: members buy cards themselves (`POST /card/buy`);
            `request`: a member's buy is
            refused (403 `request_required`) and the member asks (`POST /team/requests`, kind `card`).
    """

    member_cards: CardPolicyRequestMemberCards

    def to_dict(self) -> dict[str, Any]:
        member_cards = self.member_cards.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "member_cards": member_cards,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        member_cards = CardPolicyRequestMemberCards(d.pop("member_cards"))

        card_policy_request = cls(
            member_cards=member_cards,
        )

        return card_policy_request
