from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="NetworkData")


@_attrs_define
class NetworkData:
    """ISO 8583 data of a transaction that came through the network
    (docs/network.md#the-network-interface-iso-8583).

        Example:
            {'stan': 'example', 'rrn': 'example', 'acquirer_id': 'example', 'terminal_id': 'example', 'merchant_id':
                'example', 'auth_code': 'example'}

        Attributes:
            stan (str): System trace audit number (DE 11).
            rrn (None | str): Retrieval reference number (DE 37).
            acquirer_id (str): Acquiring institution id (DE 32).
            terminal_id (None | str): Card acceptor terminal id (DE 41).
            merchant_id (None | str): Card acceptor id (DE 42).
            auth_code (None | str): Authorization code given (DE 38).
    """

    stan: str
    rrn: None | str
    acquirer_id: str
    terminal_id: None | str
    merchant_id: None | str
    auth_code: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        stan = self.stan

        rrn: None | str
        rrn = self.rrn

        acquirer_id = self.acquirer_id

        terminal_id: None | str
        terminal_id = self.terminal_id

        merchant_id: None | str
        merchant_id = self.merchant_id

        auth_code: None | str
        auth_code = self.auth_code

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "stan": stan,
                "rrn": rrn,
                "acquirer_id": acquirer_id,
                "terminal_id": terminal_id,
                "merchant_id": merchant_id,
                "auth_code": auth_code,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        stan = d.pop("stan")

        def _parse_rrn(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        rrn = _parse_rrn(d.pop("rrn"))

        acquirer_id = d.pop("acquirer_id")

        def _parse_terminal_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        terminal_id = _parse_terminal_id(d.pop("terminal_id"))

        def _parse_merchant_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        merchant_id = _parse_merchant_id(d.pop("merchant_id"))

        def _parse_auth_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        auth_code = _parse_auth_code(d.pop("auth_code"))

        network_data = cls(
            stan=stan,
            rrn=rrn,
            acquirer_id=acquirer_id,
            terminal_id=terminal_id,
            merchant_id=merchant_id,
            auth_code=auth_code,
        )

        network_data.additional_properties = d
        return network_data

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
