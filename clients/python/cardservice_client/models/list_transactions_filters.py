from __future__ import annotations

import builtins
import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.list_transactions_filters_status import ListTransactionsFiltersStatus
from ..models.list_transactions_filters_type import ListTransactionsFiltersType
from ..types import UNSET, Unset

T = TypeVar("T", bound="ListTransactionsFilters")


@_attrs_define
class ListTransactionsFilters:
    """
    Attributes:
        card_uuid (str | Unset | UUID): Only this card's transactions
        account_uuid (str | Unset | UUID): Only transactions of this account
        status (ListTransactionsFiltersStatus | Unset): Only transactions in this status
        type (ListTransactionsFiltersType | Unset): Only transactions of this type
        date_from (datetime.date | Unset): Created on or after this UTC day, `YYYY-MM-DD`
        date_to (datetime.date | Unset): Created on or before this UTC day, `YYYY-MM-DD` (inclusive)
        search (str | Unset): Part of the merchant's name or of the transaction's description, any case
    """

    card_uuid: str | Unset | UUID = UNSET
    account_uuid: str | Unset | UUID = UNSET
    status: ListTransactionsFiltersStatus | Unset = UNSET
    type: ListTransactionsFiltersType | Unset = UNSET
    date_from: datetime.date | Unset = UNSET
    date_to: datetime.date | Unset = UNSET
    search: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        card_uuid: str | Unset
        if isinstance(self.card_uuid, Unset):
            card_uuid = UNSET
        elif isinstance(self.card_uuid, UUID):
            card_uuid = str(self.card_uuid)
        else:
            card_uuid = self.card_uuid

        account_uuid: str | Unset
        if isinstance(self.account_uuid, Unset):
            account_uuid = UNSET
        elif isinstance(self.account_uuid, UUID):
            account_uuid = str(self.account_uuid)
        else:
            account_uuid = self.account_uuid

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        type: str | Unset = UNSET
        if not isinstance(self.type, Unset):
            type = self.type.value

        date_from: str | Unset = UNSET
        if not isinstance(self.date_from, Unset):
            date_from = self.date_from.isoformat()

        date_to: str | Unset = UNSET
        if not isinstance(self.date_to, Unset):
            date_to = self.date_to.isoformat()

        search = self.search

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if card_uuid is not UNSET:
            field_dict["card_uuid"] = card_uuid
        if account_uuid is not UNSET:
            field_dict["account_uuid"] = account_uuid
        if status is not UNSET:
            field_dict["status"] = status
        if type is not UNSET:
            field_dict["type"] = type
        if date_from is not UNSET:
            field_dict["date_from"] = date_from
        if date_to is not UNSET:
            field_dict["date_to"] = date_to
        if search is not UNSET:
            field_dict["search"] = search

        return field_dict

    @classmethod
    def from_dict(cls: builtins.type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

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

        def _parse_account_uuid(data: object) -> str | Unset | UUID:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                account_uuid_type_0 = UUID(data)

                return account_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | Unset | UUID, data)

        account_uuid = _parse_account_uuid(d.pop("account_uuid", UNSET))

        _status = d.pop("status", UNSET)
        status: ListTransactionsFiltersStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = ListTransactionsFiltersStatus(_status)

        _type_ = d.pop("type", UNSET)
        type: ListTransactionsFiltersType | Unset
        if isinstance(_type_, Unset):
            type = UNSET
        else:
            type = ListTransactionsFiltersType(_type_)

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

        search = d.pop("search", UNSET)

        list_transactions_filters = cls(
            card_uuid=card_uuid,
            account_uuid=account_uuid,
            status=status,
            type=type,
            date_from=date_from,
            date_to=date_to,
            search=search,
        )

        return list_transactions_filters
