from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.authorization_endpoint_request_on_timeout import AuthorizationEndpointRequestOnTimeout
from ..types import UNSET, Unset

T = TypeVar("T", bound="AuthorizationEndpointRequest")


@_attrs_define
class AuthorizationEndpointRequest:
    """
    Example:
        {'url': 'https://decisions.example.com/authorize', 'timeout_ms': 1500, 'on_timeout': 'decline'}

    Attributes:
        url (str): The http(s) URL that decides, up to 2048 characters; private and loopback addresses
            refused (422 `url_not_allowed`) unless allowed by configuration.
        timeout_ms (int | Unset): How long to wait for its answer, 100..3000 ms (default 1500); on the ISO 8583 channel
            at
            most 2000. Default: 1500.
        on_timeout (AuthorizationEndpointRequestOnTimeout | Unset): What happens when it does not answer in time or
            fails: `decline` (default, as
            `do_not_honor`) or `approve`. Default: AuthorizationEndpointRequestOnTimeout.DECLINE.
    """

    url: str
    timeout_ms: int | Unset = 1500
    on_timeout: AuthorizationEndpointRequestOnTimeout | Unset = AuthorizationEndpointRequestOnTimeout.DECLINE

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        timeout_ms = self.timeout_ms

        on_timeout: str | Unset = UNSET
        if not isinstance(self.on_timeout, Unset):
            on_timeout = self.on_timeout.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if timeout_ms is not UNSET:
            field_dict["timeout_ms"] = timeout_ms
        if on_timeout is not UNSET:
            field_dict["on_timeout"] = on_timeout

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        timeout_ms = d.pop("timeout_ms", UNSET)

        _on_timeout = d.pop("on_timeout", UNSET)
        on_timeout: AuthorizationEndpointRequestOnTimeout | Unset
        if isinstance(_on_timeout, Unset):
            on_timeout = UNSET
        else:
            on_timeout = AuthorizationEndpointRequestOnTimeout(_on_timeout)

        authorization_endpoint_request = cls(
            url=url,
            timeout_ms=timeout_ms,
            on_timeout=on_timeout,
        )

        return authorization_endpoint_request
