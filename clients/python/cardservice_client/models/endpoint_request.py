from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.endpoint_request_on_timeout import EndpointRequestOnTimeout
from ..types import UNSET, Unset

T = TypeVar("T", bound="EndpointRequest")


@_attrs_define
class EndpointRequest:
    """
    Example:
        {'url': 'example', 'timeout_ms': 100, 'on_timeout': 'approve'}

    Attributes:
        url (str):
        timeout_ms (int | Unset):  Default: 1500.
        on_timeout (EndpointRequestOnTimeout | Unset):  Default: EndpointRequestOnTimeout.DECLINE.
    """

    url: str
    timeout_ms: int | Unset = 1500
    on_timeout: EndpointRequestOnTimeout | Unset = EndpointRequestOnTimeout.DECLINE

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
        on_timeout: EndpointRequestOnTimeout | Unset
        if isinstance(_on_timeout, Unset):
            on_timeout = UNSET
        else:
            on_timeout = EndpointRequestOnTimeout(_on_timeout)

        endpoint_request = cls(
            url=url,
            timeout_ms=timeout_ms,
            on_timeout=on_timeout,
        )

        return endpoint_request
