from __future__ import annotations

import builtins
import datetime
from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.account_record_status import AccountRecordStatus

if TYPE_CHECKING:
    from ..models.card_record import CardRecord
    from ..models.owner import Owner


T = TypeVar("T", bound="AccountRecord")


@_attrs_define
class AccountRecord:
    """
    Example:
        {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace', 'type': 'example', 'status': 'active',
            'currency': 'EUR', 'balance': 12.5, 'cards_count': 1, 'card_info': {'uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'bin': '424242',
            'brand': 'visa', 'mask': '424242******4242', 'last4': '4242', 'expiry_month': 12, 'expiry_year': 2029,
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
            'pin_blocked': True}, 'owner': {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace'},
            'created_at': '2026-03-19T10:15:00Z', 'updated_at': '2026-03-19T10:15:00Z'}

    Attributes:
        uuid (UUID):
        name (str):
        type (str):
        status (AccountRecordStatus):
        currency (str):
        balance (Decimal):
        cards_count (int):
        card_info (CardRecord | None):
        owner (Owner):  Example: {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace'}.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    uuid: UUID
    name: str
    type: str
    status: AccountRecordStatus
    currency: str
    balance: Decimal
    cards_count: int
    card_info: CardRecord | None
    owner: Owner
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.card_record import CardRecord  # noqa: PLC0415

        uuid = str(self.uuid)

        name = self.name

        type = self.type

        status = self.status.value

        currency = self.currency

        balance = self.balance

        cards_count = self.cards_count

        card_info: dict[str, Any] | None
        if isinstance(self.card_info, CardRecord):
            card_info = self.card_info.to_dict()
        else:
            card_info = self.card_info

        owner = self.owner.to_dict()

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uuid": uuid,
                "name": name,
                "type": type,
                "status": status,
                "currency": currency,
                "balance": balance,
                "cards_count": cards_count,
                "card_info": card_info,
                "owner": owner,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: builtins.type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.card_record import CardRecord  # noqa: PLC0415
        from ..models.owner import Owner  # noqa: PLC0415

        d = dict(src_dict)
        uuid = UUID(d.pop("uuid"))

        name = d.pop("name")

        type = d.pop("type")

        status = AccountRecordStatus(d.pop("status"))

        currency = d.pop("currency")

        balance = d.pop("balance")

        cards_count = d.pop("cards_count")

        def _parse_card_info(data: object) -> CardRecord | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                card_info_type_0 = CardRecord.from_dict(data)

                return card_info_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CardRecord | None, data)

        card_info = _parse_card_info(d.pop("card_info"))

        owner = Owner.from_dict(d.pop("owner"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        account_record = cls(
            uuid=uuid,
            name=name,
            type=type,
            status=status,
            currency=currency,
            balance=balance,
            cards_count=cards_count,
            card_info=card_info,
            owner=owner,
            created_at=created_at,
            updated_at=updated_at,
        )

        account_record.additional_properties = d
        return account_record

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
