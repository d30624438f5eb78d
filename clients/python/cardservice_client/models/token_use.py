from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.token_use_wallet import TokenUseWallet

T = TypeVar("T", bound="TokenUse")


@_attrs_define
class TokenUse:
    """The digital-wallet token a payment was made with (docs/network.md#wallet-tokens): never its
    number.

        Example:
            {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'wallet': 'apple_pay', 'last4': '4242'}

        Attributes:
            uuid (UUID): The token (`GET /card/{cardUuid}/tokens`).
            wallet (TokenUseWallet):
            last4 (str): The last four digits of the device PAN.
    """

    uuid: UUID
    wallet: TokenUseWallet
    last4: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        uuid = str(self.uuid)

        wallet = self.wallet.value

        last4 = self.last4

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uuid": uuid,
                "wallet": wallet,
                "last4": last4,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        uuid = UUID(d.pop("uuid"))

        wallet = TokenUseWallet(d.pop("wallet"))

        last4 = d.pop("last4")

        token_use = cls(
            uuid=uuid,
            wallet=wallet,
            last4=last4,
        )

        token_use.additional_properties = d
        return token_use

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
