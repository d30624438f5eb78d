from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ProgramFeesRequest")


@_attrs_define
class ProgramFeesRequest:
    """The program's fees, replaced as a whole: a field left out (or `null`) is not overridden,
    so its cardholders pay the schedule's; `{}` removes every override.

        Example:
            {'card_decline': 0.25, 'card_fx': 1.5, 'topup_percent': 1}

        Attributes:
            card_decline (Decimal | None | Unset): Per declined authorization, in the card's currency (the schedule's
                `card_decline`).
            card_fx (Decimal | None | Unset): Percent of a foreign-currency amount (`card_fx`), e.g. `1.25` for 1.25 %.
            card_physical (Decimal | None | Unset): Per physical card ordered, in the account's currency (`card_physical`).
            card_atm (Decimal | None | Unset): Per ATM withdrawal, in the card's currency (`card_atm`).
            topup_percent (Decimal | None | Unset): Percent of a new card's start balance (the schedule's `card_topup`).
    """

    card_decline: Decimal | None | Unset = UNSET
    card_fx: Decimal | None | Unset = UNSET
    card_physical: Decimal | None | Unset = UNSET
    card_atm: Decimal | None | Unset = UNSET
    topup_percent: Decimal | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        card_decline: Decimal | None | Unset
        if isinstance(self.card_decline, Unset):
            card_decline = UNSET
        else:
            card_decline = self.card_decline

        card_fx: Decimal | None | Unset
        if isinstance(self.card_fx, Unset):
            card_fx = UNSET
        else:
            card_fx = self.card_fx

        card_physical: Decimal | None | Unset
        if isinstance(self.card_physical, Unset):
            card_physical = UNSET
        else:
            card_physical = self.card_physical

        card_atm: Decimal | None | Unset
        if isinstance(self.card_atm, Unset):
            card_atm = UNSET
        else:
            card_atm = self.card_atm

        topup_percent: Decimal | None | Unset
        if isinstance(self.topup_percent, Unset):
            topup_percent = UNSET
        else:
            topup_percent = self.topup_percent

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if card_decline is not UNSET:
            field_dict["card_decline"] = card_decline
        if card_fx is not UNSET:
            field_dict["card_fx"] = card_fx
        if card_physical is not UNSET:
            field_dict["card_physical"] = card_physical
        if card_atm is not UNSET:
            field_dict["card_atm"] = card_atm
        if topup_percent is not UNSET:
            field_dict["topup_percent"] = topup_percent

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_card_decline(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        card_decline = _parse_card_decline(d.pop("card_decline", UNSET))

        def _parse_card_fx(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        card_fx = _parse_card_fx(d.pop("card_fx", UNSET))

        def _parse_card_physical(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        card_physical = _parse_card_physical(d.pop("card_physical", UNSET))

        def _parse_card_atm(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        card_atm = _parse_card_atm(d.pop("card_atm", UNSET))

        def _parse_topup_percent(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        topup_percent = _parse_topup_percent(d.pop("topup_percent", UNSET))

        program_fees_request = cls(
            card_decline=card_decline,
            card_fx=card_fx,
            card_physical=card_physical,
            card_atm=card_atm,
            topup_percent=topup_percent,
        )

        return program_fees_request
