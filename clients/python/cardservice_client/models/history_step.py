from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.history_step_status import HistoryStepStatus

T = TypeVar("T", bound="HistoryStep")


@_attrs_define
class HistoryStep:
    """
    Example:
        {'status': 'open', 'at': '2026-03-19T10:15:00Z'}

    Attributes:
        status (HistoryStepStatus):
        at (datetime.datetime):
    """

    status: HistoryStepStatus
    at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        at = self.at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = HistoryStepStatus(d.pop("status"))

        at = datetime.datetime.fromisoformat(d.pop("at"))

        history_step = cls(
            status=status,
            at=at,
        )

        history_step.additional_properties = d
        return history_step

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
