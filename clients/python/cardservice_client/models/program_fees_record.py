from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.fee_record import FeeRecord


T = TypeVar("T", bound="ProgramFeesRecord")


@_attrs_define
class ProgramFeesRecord:
    """
    Example:
        {'program_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'card_decline': 12.5, 'card_fx': 12.5, 'card_physical':
            12.5, 'card_atm': 12.5, 'topup_percent': 12.5, 'fees': [{'slug': 'example', 'name': 'Ada Lovelace', 'kind':
            'fixed', 'amount': 12.5, 'currency': 'EUR'}]}

    Attributes:
        program_uuid (UUID):
        card_decline (Decimal | None):
        card_fx (Decimal | None):
        card_physical (Decimal | None):
        card_atm (Decimal | None):
        topup_percent (Decimal | None):
        fees (list[FeeRecord]): What the program's cardholders pay: the schedule with the program's fees (a cardholder's
            own override, if any, still comes first).
    """

    program_uuid: UUID
    card_decline: Decimal | None
    card_fx: Decimal | None
    card_physical: Decimal | None
    card_atm: Decimal | None
    topup_percent: Decimal | None
    fees: list[FeeRecord]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        program_uuid = str(self.program_uuid)

        card_decline: Decimal | None
        card_decline = self.card_decline

        card_fx: Decimal | None
        card_fx = self.card_fx

        card_physical: Decimal | None
        card_physical = self.card_physical

        card_atm: Decimal | None
        card_atm = self.card_atm

        topup_percent: Decimal | None
        topup_percent = self.topup_percent

        fees = []
        for fees_item_data in self.fees:
            fees_item = fees_item_data.to_dict()
            fees.append(fees_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "program_uuid": program_uuid,
                "card_decline": card_decline,
                "card_fx": card_fx,
                "card_physical": card_physical,
                "card_atm": card_atm,
                "topup_percent": topup_percent,
                "fees": fees,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fee_record import FeeRecord  # noqa: PLC0415

        d = dict(src_dict)
        program_uuid = UUID(d.pop("program_uuid"))

        def _parse_card_decline(data: object) -> Decimal | None:
            if data is None:
                return data
            return cast(Decimal | None, data)

        card_decline = _parse_card_decline(d.pop("card_decline"))

        def _parse_card_fx(data: object) -> Decimal | None:
            if data is None:
                return data
            return cast(Decimal | None, data)

        card_fx = _parse_card_fx(d.pop("card_fx"))

        def _parse_card_physical(data: object) -> Decimal | None:
            if data is None:
                return data
            return cast(Decimal | None, data)

        card_physical = _parse_card_physical(d.pop("card_physical"))

        def _parse_card_atm(data: object) -> Decimal | None:
            if data is None:
                return data
            return cast(Decimal | None, data)

        card_atm = _parse_card_atm(d.pop("card_atm"))

        def _parse_topup_percent(data: object) -> Decimal | None:
            if data is None:
                return data
            return cast(Decimal | None, data)

        topup_percent = _parse_topup_percent(d.pop("topup_percent"))

        fees = []
        _fees = d.pop("fees")
        for fees_item_data in _fees:
            fees_item = FeeRecord.from_dict(fees_item_data)

            fees.append(fees_item)

        program_fees_record = cls(
            program_uuid=program_uuid,
            card_decline=card_decline,
            card_fx=card_fx,
            card_physical=card_physical,
            card_atm=card_atm,
            topup_percent=topup_percent,
            fees=fees,
        )

        program_fees_record.additional_properties = d
        return program_fees_record

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
