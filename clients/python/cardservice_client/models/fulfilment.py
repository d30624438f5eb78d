from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.fulfilment_status import FulfilmentStatus

T = TypeVar("T", bound="Fulfilment")


@_attrs_define
class Fulfilment:
    """
    Example:
        {'status': 'ordered', 'carrier': 'example', 'tracking': 'example', 'updated_at': '2026-03-19T10:15:00Z'}

    Attributes:
        status (FulfilmentStatus):
        carrier (None | str):
        tracking (None | str):
        updated_at (datetime.datetime):
    """

    status: FulfilmentStatus
    carrier: None | str
    tracking: None | str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        carrier: None | str
        carrier = self.carrier

        tracking: None | str
        tracking = self.tracking

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "carrier": carrier,
                "tracking": tracking,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = FulfilmentStatus(d.pop("status"))

        def _parse_carrier(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        carrier = _parse_carrier(d.pop("carrier"))

        def _parse_tracking(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tracking = _parse_tracking(d.pop("tracking"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        fulfilment = cls(
            status=status,
            carrier=carrier,
            tracking=tracking,
            updated_at=updated_at,
        )

        fulfilment.additional_properties = d
        return fulfilment

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
