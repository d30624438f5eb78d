from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="OutgoingRequest")


@_attrs_define
class OutgoingRequest:
    """
    Example:
        {'date': '2026-03-19'}

    Attributes:
        date (datetime.date): The UTC day of the file (YYYY-MM-DD), today or before.
    """

    date: datetime.date

    def to_dict(self) -> dict[str, Any]:
        date = self.date.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "date": date,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        date = datetime.date.fromisoformat(d.pop("date"))

        outgoing_request = cls(
            date=date,
        )

        return outgoing_request
