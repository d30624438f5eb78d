from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.team_card_record import TeamCardRecord


T = TypeVar("T", bound="TeamCardList")


@_attrs_define
class TeamCardList:
    """
    Example:
        {'cards': [{'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'account_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'bin': '424242', 'brand': 'visa', 'mask': '424242******4242', 'last4':
            '4242', 'expiry_month': 12, 'expiry_year': 2029, 'currency': 'EUR', 'balance': 12.5, 'status': 'active',
            'is_favorite': True, 'sort_order': 1, 'description': 'Team travel', 'external_id': 'order-1001', 'holder_name':
            'Ada Lovelace', 'holder_address': {'line1': 'Unter den Linden 1', 'line2': 'example', 'city': 'Berlin', 'state':
            'example', 'postal_code': '10117', 'country': 'DE'}, 'auto_replenish': {'enabled': True, 'amount': 12.5,
            'min_balance': 12.5}, 'spending_controls': {'per_authorization': 12.5, 'daily': 12.5, 'weekly': 12.5, 'monthly':
            12.5, 'lifetime': 12.5, 'atm_per_day': 12.5, 'allowed_tags': ['example'], 'blocked_tags': ['example'],
            'allowed_countries': ['example'], 'blocked_countries': ['example']}, 'created_at': '2026-03-19T10:15:00Z',
            'updated_at': '2026-03-19T10:15:00Z', 'card_type': 'multi_use', 'locked_merchant': 'example', 'closed_reason':
            'lost', 'replaces': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'replaced_by':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'frozen_reason': 'suspected_fraud', 'form': 'virtual', 'shipping':
            {'name': 'Ada Lovelace', 'line1': 'Unter den Linden 1', 'line2': 'example', 'city': 'Berlin', 'postal_code':
            '10117', 'country': 'DE'}, 'fulfilment': {'status': 'ordered', 'carrier': 'example', 'tracking': 'example',
            'updated_at': '2026-03-19T10:15:00Z'}, 'pin_set': True, 'pin_blocked': True, 'holder': {'uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace'}}]}

    Attributes:
        cards (list[TeamCardRecord]):
    """

    cards: list[TeamCardRecord]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cards = []
        for cards_item_data in self.cards:
            cards_item = cards_item_data.to_dict()
            cards.append(cards_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cards": cards,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.team_card_record import TeamCardRecord  # noqa: PLC0415

        d = dict(src_dict)
        cards = []
        _cards = d.pop("cards")
        for cards_item_data in _cards:
            cards_item = TeamCardRecord.from_dict(cards_item_data)

            cards.append(cards_item)

        team_card_list = cls(
            cards=cards,
        )

        team_card_list.additional_properties = d
        return team_card_list

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
