from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.spending_controls_record import SpendingControlsRecord


T = TypeVar("T", bound="ProgramRecord")


@_attrs_define
class ProgramRecord:
    """
    Example:
        {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace', 'bin_uuids':
            ['0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30'], 'spending_controls': {'per_authorization': 12.5, 'daily': 12.5,
            'weekly': 12.5, 'monthly': 12.5, 'lifetime': 12.5, 'atm_per_day': 12.5, 'allowed_tags': ['example'],
            'blocked_tags': ['example'], 'allowed_countries': ['example'], 'blocked_countries': ['example']},
            'card_validity_months': 1, 'provisional_credit': True, 'created_at': '2026-03-19T10:15:00Z', 'updated_at':
            '2026-03-19T10:15:00Z'}

    Attributes:
        uuid (UUID):
        name (str):
        bin_uuids (list[UUID]):
        spending_controls (None | SpendingControlsRecord):
        card_validity_months (int):
        provisional_credit (bool):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    uuid: UUID
    name: str
    bin_uuids: list[UUID]
    spending_controls: None | SpendingControlsRecord
    card_validity_months: int
    provisional_credit: bool
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.spending_controls_record import SpendingControlsRecord  # noqa: PLC0415

        uuid = str(self.uuid)

        name = self.name

        bin_uuids = []
        for bin_uuids_item_data in self.bin_uuids:
            bin_uuids_item = str(bin_uuids_item_data)
            bin_uuids.append(bin_uuids_item)

        spending_controls: dict[str, Any] | None
        if isinstance(self.spending_controls, SpendingControlsRecord):
            spending_controls = self.spending_controls.to_dict()
        else:
            spending_controls = self.spending_controls

        card_validity_months = self.card_validity_months

        provisional_credit = self.provisional_credit

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uuid": uuid,
                "name": name,
                "bin_uuids": bin_uuids,
                "spending_controls": spending_controls,
                "card_validity_months": card_validity_months,
                "provisional_credit": provisional_credit,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.spending_controls_record import SpendingControlsRecord  # noqa: PLC0415

        d = dict(src_dict)
        uuid = UUID(d.pop("uuid"))

        name = d.pop("name")

        bin_uuids = []
        _bin_uuids = d.pop("bin_uuids")
        for bin_uuids_item_data in _bin_uuids:
            bin_uuids_item = UUID(bin_uuids_item_data)

            bin_uuids.append(bin_uuids_item)

        def _parse_spending_controls(data: object) -> None | SpendingControlsRecord:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                spending_controls_type_0 = SpendingControlsRecord.from_dict(data)

                return spending_controls_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SpendingControlsRecord, data)

        spending_controls = _parse_spending_controls(d.pop("spending_controls"))

        card_validity_months = d.pop("card_validity_months")

        provisional_credit = d.pop("provisional_credit")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        program_record = cls(
            uuid=uuid,
            name=name,
            bin_uuids=bin_uuids,
            spending_controls=spending_controls,
            card_validity_months=card_validity_months,
            provisional_credit=provisional_credit,
            created_at=created_at,
            updated_at=updated_at,
        )

        program_record.additional_properties = d
        return program_record

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
