from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.report_total import ReportTotal


T = TypeVar("T", bound="ReportPageMeta")


@_attrs_define
class ReportPageMeta:
    """Page numbers (docs/api.md#pagination), and the uuid a keyset walk continues after.

    Example:
        {'current_page': 1, 'per_page': 1, 'total': 1, 'last_page': 1, 'next_starting_after':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'totals': [{'currency': 'EUR', 'debits': 12.5, 'credits': 12.5}]}

    Attributes:
        current_page (int):
        per_page (int):
        total (int):
        last_page (int):
        next_starting_after (None | UUID):
        totals (list[ReportTotal] | None):
    """

    current_page: int
    per_page: int
    total: int
    last_page: int
    next_starting_after: None | UUID
    totals: list[ReportTotal] | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        current_page = self.current_page

        per_page = self.per_page

        total = self.total

        last_page = self.last_page

        next_starting_after: None | str
        if isinstance(self.next_starting_after, UUID):
            next_starting_after = str(self.next_starting_after)
        else:
            next_starting_after = self.next_starting_after

        totals: list[dict[str, Any]] | None
        if isinstance(self.totals, list):
            totals = []
            for totals_type_0_item_data in self.totals:
                totals_type_0_item = totals_type_0_item_data.to_dict()
                totals.append(totals_type_0_item)

        else:
            totals = self.totals

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "current_page": current_page,
                "per_page": per_page,
                "total": total,
                "last_page": last_page,
                "next_starting_after": next_starting_after,
                "totals": totals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.report_total import ReportTotal  # noqa: PLC0415

        d = dict(src_dict)
        current_page = d.pop("current_page")

        per_page = d.pop("per_page")

        total = d.pop("total")

        last_page = d.pop("last_page")

        def _parse_next_starting_after(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_starting_after_type_0 = UUID(data)

                return next_starting_after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        next_starting_after = _parse_next_starting_after(d.pop("next_starting_after"))

        def _parse_totals(data: object) -> list[ReportTotal] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                totals_type_0 = []
                _totals_type_0 = data
                for totals_type_0_item_data in _totals_type_0:
                    totals_type_0_item = ReportTotal.from_dict(totals_type_0_item_data)

                    totals_type_0.append(totals_type_0_item)

                return totals_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ReportTotal] | None, data)

        totals = _parse_totals(d.pop("totals"))

        report_page_meta = cls(
            current_page=current_page,
            per_page=per_page,
            total=total,
            last_page=last_page,
            next_starting_after=next_starting_after,
            totals=totals,
        )

        report_page_meta.additional_properties = d
        return report_page_meta

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
