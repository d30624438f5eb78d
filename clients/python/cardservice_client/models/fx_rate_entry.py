from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="FxRateEntry")


@_attrs_define
class FxRateEntry:
    """A rate the operator set, as `GET /operator/fx-rates` lists them.

    Example:
        {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'base': 'example', 'quote': 'example', 'rate': 12.5,
            'effective_at': '2026-03-19T10:15:00Z', 'created_at': '2026-03-19T10:15:00Z'}

    Attributes:
        uuid (UUID):
        base (str):
        quote (str):
        rate (Decimal):
        effective_at (datetime.datetime):
        created_at (datetime.datetime):
    """

    uuid: UUID
    base: str
    quote: str
    rate: Decimal
    effective_at: datetime.datetime
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        uuid = str(self.uuid)

        base = self.base

        quote = self.quote

        rate = self.rate

        effective_at = self.effective_at.isoformat()

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uuid": uuid,
                "base": base,
                "quote": quote,
                "rate": rate,
                "effective_at": effective_at,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        uuid = UUID(d.pop("uuid"))

        base = d.pop("base")

        quote = d.pop("quote")

        rate = d.pop("rate")

        effective_at = datetime.datetime.fromisoformat(d.pop("effective_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        fx_rate_entry = cls(
            uuid=uuid,
            base=base,
            quote=quote,
            rate=rate,
            effective_at=effective_at,
            created_at=created_at,
        )

        fx_rate_entry.additional_properties = d
        return fx_rate_entry

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
