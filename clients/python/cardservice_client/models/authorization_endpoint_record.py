from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.authorization_endpoint_record_on_timeout import AuthorizationEndpointRecordOnTimeout
from ..types import UNSET, Unset

T = TypeVar("T", bound="AuthorizationEndpointRecord")


@_attrs_define
class AuthorizationEndpointRecord:
    """
    Example:
        {'url': 'https://hooks.example.com/cardservice', 'timeout_ms': 1, 'on_timeout': 'approve',
            'consecutive_failures': 1, 'stand_in_until': '2026-03-19T10:15:00Z', 'secret': 'example', 'created_at':
            '2026-03-19T10:15:00Z', 'updated_at': '2026-03-19T10:15:00Z'}

    Attributes:
        url (str):
        timeout_ms (int):
        on_timeout (AuthorizationEndpointRecordOnTimeout):
        consecutive_failures (int):
        stand_in_until (datetime.datetime | None):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        secret (None | str | Unset): the whsec_ signing secret: shown on PUT only
    """

    url: str
    timeout_ms: int
    on_timeout: AuthorizationEndpointRecordOnTimeout
    consecutive_failures: int
    stand_in_until: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    secret: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        timeout_ms = self.timeout_ms

        on_timeout = self.on_timeout.value

        consecutive_failures = self.consecutive_failures

        stand_in_until: None | str
        if isinstance(self.stand_in_until, datetime.datetime):
            stand_in_until = self.stand_in_until.isoformat()
        else:
            stand_in_until = self.stand_in_until

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        secret: None | str | Unset
        if isinstance(self.secret, Unset):
            secret = UNSET
        else:
            secret = self.secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "url": url,
                "timeout_ms": timeout_ms,
                "on_timeout": on_timeout,
                "consecutive_failures": consecutive_failures,
                "stand_in_until": stand_in_until,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )
        if secret is not UNSET:
            field_dict["secret"] = secret

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        timeout_ms = d.pop("timeout_ms")

        on_timeout = AuthorizationEndpointRecordOnTimeout(d.pop("on_timeout"))

        consecutive_failures = d.pop("consecutive_failures")

        def _parse_stand_in_until(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                stand_in_until_type_0 = datetime.datetime.fromisoformat(data)

                return stand_in_until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        stand_in_until = _parse_stand_in_until(d.pop("stand_in_until"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        def _parse_secret(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        secret = _parse_secret(d.pop("secret", UNSET))

        authorization_endpoint_record = cls(
            url=url,
            timeout_ms=timeout_ms,
            on_timeout=on_timeout,
            consecutive_failures=consecutive_failures,
            stand_in_until=stand_in_until,
            created_at=created_at,
            updated_at=updated_at,
            secret=secret,
        )

        authorization_endpoint_record.additional_properties = d
        return authorization_endpoint_record

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
