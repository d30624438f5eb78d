from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.change_bin_request_status_type_0 import ChangeBinRequestStatusType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="ChangeBinRequest")


@_attrs_define
class ChangeBinRequest:
    """Any of these; a field is sent with a value or left out, never `null`.

    Example:
        {'status': 'available', 'card_price': 2.5}

    Attributes:
        status (ChangeBinRequestStatusType0 | None | Unset): `unavailable` stops sales on it (cards already issued keep
            working); `available`
            resumes them.
        card_price (Decimal | None | Unset): A new price for the cards bought from now on.
    """

    status: ChangeBinRequestStatusType0 | None | Unset = UNSET
    card_price: Decimal | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        status: None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, ChangeBinRequestStatusType0):
            status = self.status.value
        else:
            status = self.status

        card_price: Decimal | None | Unset
        if isinstance(self.card_price, Unset):
            card_price = UNSET
        else:
            card_price = self.card_price

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if status is not UNSET:
            field_dict["status"] = status
        if card_price is not UNSET:
            field_dict["card_price"] = card_price

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_status(data: object) -> ChangeBinRequestStatusType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = ChangeBinRequestStatusType0(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ChangeBinRequestStatusType0 | None | Unset, data)

        status = _parse_status(d.pop("status", UNSET))

        def _parse_card_price(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        card_price = _parse_card_price(d.pop("card_price", UNSET))

        change_bin_request = cls(
            status=status,
            card_price=card_price,
        )

        return change_bin_request
