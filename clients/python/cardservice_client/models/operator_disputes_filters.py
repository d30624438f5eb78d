from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.operator_disputes_filters_status import OperatorDisputesFiltersStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="OperatorDisputesFilters")


@_attrs_define
class OperatorDisputesFilters:
    """
    Attributes:
        status (OperatorDisputesFiltersStatus | Unset): Only disputes in this status
    """

    status: OperatorDisputesFiltersStatus | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _status = d.pop("status", UNSET)
        status: OperatorDisputesFiltersStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = OperatorDisputesFiltersStatus(_status)

        operator_disputes_filters = cls(
            status=status,
        )

        return operator_disputes_filters
