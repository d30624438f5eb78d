from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.fulfilment_request_status import FulfilmentRequestStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="FulfilmentRequest")


@_attrs_define
class FulfilmentRequest:
    """A physical card's next fulfilment step (docs/cards.md#fulfilment).

    Example:
        {'status': 'printed'}

    Attributes:
        status (FulfilmentRequestStatus): The step reached: `printed` after `ordered`, `shipped` after `printed`,
            `delivered` or
            `returned` after `shipped`; any other → 409 `fulfilment_out_of_order`.
        carrier (None | str | Unset): Who carries it, 1..64 characters; left out: the last one given stays.
        tracking (None | str | Unset): The carrier's tracking number, 1..64 characters; left out: the last one given
            stays.
    """

    status: FulfilmentRequestStatus
    carrier: None | str | Unset = UNSET
    tracking: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        carrier: None | str | Unset
        if isinstance(self.carrier, Unset):
            carrier = UNSET
        else:
            carrier = self.carrier

        tracking: None | str | Unset
        if isinstance(self.tracking, Unset):
            tracking = UNSET
        else:
            tracking = self.tracking

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
            }
        )
        if carrier is not UNSET:
            field_dict["carrier"] = carrier
        if tracking is not UNSET:
            field_dict["tracking"] = tracking

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = FulfilmentRequestStatus(d.pop("status"))

        def _parse_carrier(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        carrier = _parse_carrier(d.pop("carrier", UNSET))

        def _parse_tracking(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tracking = _parse_tracking(d.pop("tracking", UNSET))

        fulfilment_request = cls(
            status=status,
            carrier=carrier,
            tracking=tracking,
        )

        return fulfilment_request
