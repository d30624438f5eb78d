from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.list_disputes_filters_status import ListDisputesFiltersStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="ListDisputesFilters")


@_attrs_define
class ListDisputesFilters:
    """
    Attributes:
        status (ListDisputesFiltersStatus | Unset): Only disputes in this status
        transaction_uuid (str | Unset | UUID): Only disputes of this transaction
    """

    status: ListDisputesFiltersStatus | Unset = UNSET
    transaction_uuid: str | Unset | UUID = UNSET

    def to_dict(self) -> dict[str, Any]:
        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        transaction_uuid: str | Unset
        if isinstance(self.transaction_uuid, Unset):
            transaction_uuid = UNSET
        elif isinstance(self.transaction_uuid, UUID):
            transaction_uuid = str(self.transaction_uuid)
        else:
            transaction_uuid = self.transaction_uuid

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if status is not UNSET:
            field_dict["status"] = status
        if transaction_uuid is not UNSET:
            field_dict["transaction_uuid"] = transaction_uuid

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _status = d.pop("status", UNSET)
        status: ListDisputesFiltersStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = ListDisputesFiltersStatus(_status)

        def _parse_transaction_uuid(data: object) -> str | Unset | UUID:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                transaction_uuid_type_0 = UUID(data)

                return transaction_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | Unset | UUID, data)

        transaction_uuid = _parse_transaction_uuid(d.pop("transaction_uuid", UNSET))

        list_disputes_filters = cls(
            status=status,
            transaction_uuid=transaction_uuid,
        )

        return list_disputes_filters
