from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.spending_controls import SpendingControls


T = TypeVar("T", bound="CreateProgramRequest")


@_attrs_define
class CreateProgramRequest:
    """
    Example:
        {'name': 'Marketing cards', 'bin_uuids': ['4f1c2a9e-6b1d-4c3e-9a57-0b7d2e51a001'], 'spending_controls':
            {'per_authorization': 250, 'monthly': 2000, 'blocked_tags': ['uber']}, 'card_validity_months': 24}

    Attributes:
        name (str): The program's name, 1..120 characters.
        bin_uuids (list[str | UUID]): The BINs (`GET /dictionary/bins`) its users may buy cards from; others → 422
            `bin_not_allowed`.
        spending_controls (None | SpendingControls | Unset): Controls applied to every card of the program, on top of
            the card's own.
        card_validity_months (int | Unset): How long new cards of the program are valid, in months (default 36).
            Default: 36.
        provisional_credit (bool | Unset): A dispute credits the card when it is opened, before the network's outcome
            (docs/disputes.md#money); default false. Default: False.
    """

    name: str
    bin_uuids: list[str | UUID]
    spending_controls: None | SpendingControls | Unset = UNSET
    card_validity_months: int | Unset = 36
    provisional_credit: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        from ..models.spending_controls import SpendingControls  # noqa: PLC0415

        name = self.name

        bin_uuids = []
        for bin_uuids_item_data in self.bin_uuids:
            bin_uuids_item: str
            if isinstance(bin_uuids_item_data, UUID):
                bin_uuids_item = str(bin_uuids_item_data)
            else:
                bin_uuids_item = bin_uuids_item_data
            bin_uuids.append(bin_uuids_item)

        spending_controls: dict[str, Any] | None | Unset
        if isinstance(self.spending_controls, Unset):
            spending_controls = UNSET
        elif isinstance(self.spending_controls, SpendingControls):
            spending_controls = self.spending_controls.to_dict()
        else:
            spending_controls = self.spending_controls

        card_validity_months = self.card_validity_months

        provisional_credit = self.provisional_credit

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "bin_uuids": bin_uuids,
            }
        )
        if spending_controls is not UNSET:
            field_dict["spending_controls"] = spending_controls
        if card_validity_months is not UNSET:
            field_dict["card_validity_months"] = card_validity_months
        if provisional_credit is not UNSET:
            field_dict["provisional_credit"] = provisional_credit

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.spending_controls import SpendingControls  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        bin_uuids = []
        _bin_uuids = d.pop("bin_uuids")
        for bin_uuids_item_data in _bin_uuids:

            def _parse_bin_uuids_item(data: object) -> str | UUID:
                try:
                    if not isinstance(data, str):
                        raise TypeError()
                    bin_uuids_item_type_0 = UUID(data)

                    return bin_uuids_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                return cast(str | UUID, data)

            bin_uuids_item = _parse_bin_uuids_item(bin_uuids_item_data)

            bin_uuids.append(bin_uuids_item)

        def _parse_spending_controls(data: object) -> None | SpendingControls | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                spending_controls_type_0 = SpendingControls.from_dict(data)

                return spending_controls_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SpendingControls | Unset, data)

        spending_controls = _parse_spending_controls(d.pop("spending_controls", UNSET))

        card_validity_months = d.pop("card_validity_months", UNSET)

        provisional_credit = d.pop("provisional_credit", UNSET)

        create_program_request = cls(
            name=name,
            bin_uuids=bin_uuids,
            spending_controls=spending_controls,
            card_validity_months=card_validity_months,
            provisional_credit=provisional_credit,
        )

        return create_program_request
