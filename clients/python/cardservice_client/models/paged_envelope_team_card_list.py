from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.page_meta import PageMeta
    from ..models.team_card_list import TeamCardList


T = TypeVar("T", bound="PagedEnvelopeTeamCardList")


@_attrs_define
class PagedEnvelopeTeamCardList:
    """
    Example:
        {'success': True, 'meta': {'current_page': 1, 'per_page': 1, 'total': 1, 'last_page': 1}, 'data': {'cards':
            [{'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'bin':
            '424242', 'brand': 'visa', 'mask': '424242******4242', 'last4': '4242', 'expiry_month': 12, 'expiry_year': 2029,
            'currency': 'EUR', 'balance': 12.5, 'status': 'active', 'is_favorite': True, 'sort_order': 1, 'description':
            'Team travel', 'external_id': 'order-1001', 'holder_name': 'Ada Lovelace', 'holder_address': {'line1': 'Unter
            den Linden 1', 'line2': 'example', 'city': 'Berlin', 'state': 'example', 'postal_code': '10117', 'country':
            'DE'}, 'auto_replenish': {'enabled': True, 'amount': 12.5, 'min_balance': 12.5}, 'spending_controls':
            {'per_authorization': 12.5, 'daily': 12.5, 'weekly': 12.5, 'monthly': 12.5, 'lifetime': 12.5, 'atm_per_day':
            12.5, 'allowed_tags': ['example'], 'blocked_tags': ['example'], 'allowed_countries': ['example'],
            'blocked_countries': ['example']}, 'created_at': '2026-03-19T10:15:00Z', 'updated_at': '2026-03-19T10:15:00Z',
            'card_type': 'multi_use', 'locked_merchant': 'example', 'closed_reason': 'lost', 'replaces':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'replaced_by': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'frozen_reason':
            'suspected_fraud', 'form': 'virtual', 'shipping': {'name': 'Ada Lovelace', 'line1': 'Unter den Linden 1',
            'line2': 'example', 'city': 'Berlin', 'postal_code': '10117', 'country': 'DE'}, 'fulfilment': {'status':
            'ordered', 'carrier': 'example', 'tracking': 'example', 'updated_at': '2026-03-19T10:15:00Z'}, 'pin_set': True,
            'pin_blocked': True, 'holder': {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace'}}]}}

    Attributes:
        meta (PageMeta):  Example: {'current_page': 1, 'per_page': 1, 'total': 1, 'last_page': 1}.
        data (TeamCardList):  Example: {'cards': [{'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'account_uuid':
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
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace'}}]}.
        success (bool | Unset):  Default: True.
    """

    meta: PageMeta
    data: TeamCardList
    success: bool | Unset = True
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        meta = self.meta.to_dict()

        data = self.data.to_dict()

        success = self.success

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "meta": meta,
                "data": data,
            }
        )
        if success is not UNSET:
            field_dict["success"] = success

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.page_meta import PageMeta  # noqa: PLC0415
        from ..models.team_card_list import TeamCardList  # noqa: PLC0415

        d = dict(src_dict)
        meta = PageMeta.from_dict(d.pop("meta"))

        data = TeamCardList.from_dict(d.pop("data"))

        success = d.pop("success", UNSET)

        paged_envelope_team_card_list = cls(
            meta=meta,
            data=data,
            success=success,
        )

        paged_envelope_team_card_list.additional_properties = d
        return paged_envelope_team_card_list

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
