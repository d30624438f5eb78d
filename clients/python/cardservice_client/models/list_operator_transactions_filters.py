from __future__ import annotations

import builtins
import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.list_operator_transactions_filters_status import ListOperatorTransactionsFiltersStatus
from ..models.list_operator_transactions_filters_type import ListOperatorTransactionsFiltersType
from ..types import UNSET, Unset

T = TypeVar("T", bound="ListOperatorTransactionsFilters")


@_attrs_define
class ListOperatorTransactionsFilters:
    """
    Attributes:
        user_uuid (str | Unset | UUID): Only this user's
        card_uuid (str | Unset | UUID): Only this card's transactions
        type (ListOperatorTransactionsFiltersType | Unset): Only transactions of this type
        status (ListOperatorTransactionsFiltersStatus | Unset): Only transactions in this status
        date_from (datetime.date | Unset): Created on or after this UTC day, `YYYY-MM-DD`
        date_to (datetime.date | Unset): Created on or before this UTC day, `YYYY-MM-DD` (inclusive)
    """

    user_uuid: str | Unset | UUID = UNSET
    card_uuid: str | Unset | UUID = UNSET
    type: ListOperatorTransactionsFiltersType | Unset = UNSET
    status: ListOperatorTransactionsFiltersStatus | Unset = UNSET
    date_from: datetime.date | Unset = UNSET
    date_to: datetime.date | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        user_uuid: str | Unset
        if isinstance(self.user_uuid, Unset):
            user_uuid = UNSET
        elif isinstance(self.user_uuid, UUID):
            user_uuid = str(self.user_uuid)
        else:
            user_uuid = self.user_uuid

        card_uuid: str | Unset
        if isinstance(self.card_uuid, Unset):
            card_uuid = UNSET
        elif isinstance(self.card_uuid, UUID):
            card_uuid = str(self.card_uuid)
        else:
            card_uuid = self.card_uuid

        type: str | Unset = UNSET
        if not isinstance(self.type, Unset):
            type = self.type.value

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        date_from: str | Unset = UNSET
        if not isinstance(self.date_from, Unset):
            date_from = self.date_from.isoformat()

        date_to: str | Unset = UNSET
        if not isinstance(self.date_to, Unset):
            date_to = self.date_to.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if user_uuid is not UNSET:
            field_dict["user_uuid"] = user_uuid
        if card_uuid is not UNSET:
            field_dict["card_uuid"] = card_uuid
        if type is not UNSET:
            field_dict["type"] = type
        if status is not UNSET:
            field_dict["status"] = status
        if date_from is not UNSET:
            field_dict["date_from"] = date_from
        if date_to is not UNSET:
            field_dict["date_to"] = date_to

        return field_dict

    @classmethod
    def from_dict(cls: builtins.type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_user_uuid(data: object) -> str | Unset | UUID:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                user_uuid_type_0 = UUID(data)

                return user_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | Unset | UUID, data)

        user_uuid = _parse_user_uuid(d.pop("user_uuid", UNSET))

        def _parse_card_uuid(data: object) -> str | Unset | UUID:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                card_uuid_type_0 = UUID(data)

                return card_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | Unset | UUID, data)

        card_uuid = _parse_card_uuid(d.pop("card_uuid", UNSET))

        _type_ = d.pop("type", UNSET)
        type: ListOperatorTransactionsFiltersType | Unset
        if isinstance(_type_, Unset):
            type = UNSET
        else:
            type = ListOperatorTransactionsFiltersType(_type_)

        _status = d.pop("status", UNSET)
        status: ListOperatorTransactionsFiltersStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = ListOperatorTransactionsFiltersStatus(_status)

        _date_from = d.pop("date_from", UNSET)
        date_from: datetime.date | Unset
        if isinstance(_date_from, Unset):
            date_from = UNSET
        else:
            date_from = datetime.date.fromisoformat(_date_from)

        _date_to = d.pop("date_to", UNSET)
        date_to: datetime.date | Unset
        if isinstance(_date_to, Unset):
            date_to = UNSET
        else:
            date_to = datetime.date.fromisoformat(_date_to)

        list_operator_transactions_filters = cls(
            user_uuid=user_uuid,
            card_uuid=card_uuid,
            type=type,
            status=status,
            date_from=date_from,
            date_to=date_to,
        )

        return list_operator_transactions_filters
