from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AttemptRecord")


@_attrs_define
class AttemptRecord:
    """
    Example:
        {'event_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'attempt': 1, 'status_code': 1, 'error': 'example',
            'duration_ms': 1, 'next_attempt_at': '2026-03-19T10:15:00Z', 'created_at': '2026-03-19T10:15:00Z'}

    Attributes:
        event_uuid (UUID):
        attempt (int):
        status_code (int | None):
        error (None | str):
        duration_ms (int):
        next_attempt_at (datetime.datetime | None):
        created_at (datetime.datetime):
    """

    event_uuid: UUID
    attempt: int
    status_code: int | None
    error: None | str
    duration_ms: int
    next_attempt_at: datetime.datetime | None
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_uuid = str(self.event_uuid)

        attempt = self.attempt

        status_code: int | None
        status_code = self.status_code

        error: None | str
        error = self.error

        duration_ms = self.duration_ms

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_uuid": event_uuid,
                "attempt": attempt,
                "status_code": status_code,
                "error": error,
                "duration_ms": duration_ms,
                "next_attempt_at": next_attempt_at,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        event_uuid = UUID(d.pop("event_uuid"))

        attempt = d.pop("attempt")

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("status_code"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        duration_ms = d.pop("duration_ms")

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        attempt_record = cls(
            event_uuid=event_uuid,
            attempt=attempt,
            status_code=status_code,
            error=error,
            duration_ms=duration_ms,
            next_attempt_at=next_attempt_at,
            created_at=created_at,
        )

        attempt_record.additional_properties = d
        return attempt_record

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
