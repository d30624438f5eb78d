from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.spending_controls import SpendingControls


T = TypeVar("T", bound="ChangeProgramRequest")


@_attrs_define
class ChangeProgramRequest:
    """Any of these; `spending_controls: null` removes the program's controls.

    Example:
        {'card_validity_months': 36}

    Attributes:
        name (None | str | Unset): A new name, 1..120 characters.
        bin_uuids (list[str | UUID] | None | Unset): The BINs its users may buy from, replacing the list.
        spending_controls (None | SpendingControls | Unset): The program's controls, replaced as a whole; `null` removes
            them.
        card_validity_months (int | None | Unset): Validity of cards bought from now on, in months.
        provisional_credit (bool | None | Unset): Disputes opened from now on credit the card at once.
    """

    name: None | str | Unset = UNSET
    bin_uuids: list[str | UUID] | None | Unset = UNSET
    spending_controls: None | SpendingControls | Unset = UNSET
    card_validity_months: int | None | Unset = UNSET
    provisional_credit: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.spending_controls import SpendingControls  # noqa: PLC0415

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        bin_uuids: list[str] | None | Unset
        if isinstance(self.bin_uuids, Unset):
            bin_uuids = UNSET
        elif isinstance(self.bin_uuids, list):
            bin_uuids = []
            for bin_uuids_type_0_item_data in self.bin_uuids:
                bin_uuids_type_0_item: str
                if isinstance(bin_uuids_type_0_item_data, UUID):
                    bin_uuids_type_0_item = str(bin_uuids_type_0_item_data)
                else:
                    bin_uuids_type_0_item = bin_uuids_type_0_item_data
                bin_uuids.append(bin_uuids_type_0_item)

        else:
            bin_uuids = self.bin_uuids

        spending_controls: dict[str, Any] | None | Unset
        if isinstance(self.spending_controls, Unset):
            spending_controls = UNSET
        elif isinstance(self.spending_controls, SpendingControls):
            spending_controls = self.spending_controls.to_dict()
        else:
            spending_controls = self.spending_controls

        card_validity_months: int | None | Unset
        if isinstance(self.card_validity_months, Unset):
            card_validity_months = UNSET
        else:
            card_validity_months = self.card_validity_months

        provisional_credit: bool | None | Unset
        if isinstance(self.provisional_credit, Unset):
            provisional_credit = UNSET
        else:
            provisional_credit = self.provisional_credit

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if bin_uuids is not UNSET:
            field_dict["bin_uuids"] = bin_uuids
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

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_bin_uuids(data: object) -> list[str | UUID] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                bin_uuids_type_0 = []
                _bin_uuids_type_0 = data
                for bin_uuids_type_0_item_data in _bin_uuids_type_0:

                    def _parse_bin_uuids_type_0_item(data: object) -> str | UUID:
                        try:
                            if not isinstance(data, str):
                                raise TypeError()
                            bin_uuids_type_0_item_type_0 = UUID(data)

                            return bin_uuids_type_0_item_type_0
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        return cast(str | UUID, data)

                    bin_uuids_type_0_item = _parse_bin_uuids_type_0_item(bin_uuids_type_0_item_data)

                    bin_uuids_type_0.append(bin_uuids_type_0_item)

                return bin_uuids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str | UUID] | None | Unset, data)

        bin_uuids = _parse_bin_uuids(d.pop("bin_uuids", UNSET))

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

        def _parse_card_validity_months(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        card_validity_months = _parse_card_validity_months(d.pop("card_validity_months", UNSET))

        def _parse_provisional_credit(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        provisional_credit = _parse_provisional_credit(d.pop("provisional_credit", UNSET))

        change_program_request = cls(
            name=name,
            bin_uuids=bin_uuids,
            spending_controls=spending_controls,
            card_validity_months=card_validity_months,
            provisional_credit=provisional_credit,
        )

        return change_program_request
