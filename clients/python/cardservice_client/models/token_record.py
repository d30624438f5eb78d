from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.token_record_status import TokenRecordStatus
from ..models.token_record_wallet import TokenRecordWallet

T = TypeVar("T", bound="TokenRecord")


@_attrs_define
class TokenRecord:
    """
    Example:
        {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'card_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'wallet':
            'apple_pay', 'device_name': 'example', 'last4': '4242', 'status': 'requires_activation', 'created_at':
            '2026-03-19T10:15:00Z', 'updated_at': '2026-03-19T10:15:00Z'}

    Attributes:
        uuid (UUID):
        card_uuid (UUID): The card the token pays with (a replacement moves it).
        wallet (TokenRecordWallet):
        device_name (str): The device the wallet named (ISO 8583 DE 48.72).
        last4 (str): The last four digits of the device PAN; never more of it.
        status (TokenRecordStatus):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    uuid: UUID
    card_uuid: UUID
    wallet: TokenRecordWallet
    device_name: str
    last4: str
    status: TokenRecordStatus
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        uuid = str(self.uuid)

        card_uuid = str(self.card_uuid)

        wallet = self.wallet.value

        device_name = self.device_name

        last4 = self.last4

        status = self.status.value

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uuid": uuid,
                "card_uuid": card_uuid,
                "wallet": wallet,
                "device_name": device_name,
                "last4": last4,
                "status": status,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        uuid = UUID(d.pop("uuid"))

        card_uuid = UUID(d.pop("card_uuid"))

        wallet = TokenRecordWallet(d.pop("wallet"))

        device_name = d.pop("device_name")

        last4 = d.pop("last4")

        status = TokenRecordStatus(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        token_record = cls(
            uuid=uuid,
            card_uuid=card_uuid,
            wallet=wallet,
            device_name=device_name,
            last4=last4,
            status=status,
            created_at=created_at,
            updated_at=updated_at,
        )

        token_record.additional_properties = d
        return token_record

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
