from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.card_policy_record_member_cards import CardPolicyRecordMemberCards

T = TypeVar("T", bound="CardPolicyRecord")


@_attrs_define
class CardPolicyRecord:
    """
    Example:
        {'member_cards': 'direct'}

    Attributes:
        member_cards (CardPolicyRecordMemberCards): direct: members buy cards; request: members ask the owner for them
    """

    member_cards: CardPolicyRecordMemberCards
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        member_cards = self.member_cards.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "member_cards": member_cards,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        member_cards = CardPolicyRecordMemberCards(d.pop("member_cards"))

        card_policy_record = cls(
            member_cards=member_cards,
        )

        card_policy_record.additional_properties = d
        return card_policy_record

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
