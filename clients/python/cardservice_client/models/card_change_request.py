from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.card_change_request_status import CardChangeRequestStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.auto_replenish_in import AutoReplenishIn
    from ..models.holder_address_in import HolderAddressIn
    from ..models.spending_controls import SpendingControls


T = TypeVar("T", bound="CardChangeRequest")


@_attrs_define
class CardChangeRequest:
    """PATCH /card/{cardUuid}: any of these; a field left out is left as it is.

    Example:
        {'description': 'Ads budget', 'holder_name': 'Ada Lovelace', 'spending_controls': {'per_authorization': 250,
            'monthly': 2000, 'blocked_tags': ['uber']}}

    Attributes:
        status (CardChangeRequestStatus | Unset): `frozen` declines every authorization (`card_frozen`) until `active`
            again; `closed` is
            final: pending holds are reversed and the balance moves back to the account. Leave it out to
            keep the status (`null` is refused). A card the program's operator froze
            (`frozen_reason: operator`) keeps its status until the operator unfreezes it
            (`frozen_by_operator`), one the team's owner froze (`owner`) until an owner does
            (`frozen_by_owner`).
        description (None | str | Unset): Your label, up to 255 characters; `null` clears it.
        holder_name (None | str | Unset): The name to print on checkout forms, 1..120 characters; `null` clears it.
        holder_address (HolderAddressIn | None | Unset): The billing address, replaced as a whole; `null` clears it.
        auto_replenish (AutoReplenishIn | Unset): `enabled: true` needs `amount` and `min_balance`; `enabled: false`
            turns it off. Example: {'enabled': True, 'amount': 50, 'min_balance': 10}.
        spending_controls (None | SpendingControls | Unset): The card's controls, replaced as a whole (limits and tags
            and countries); `null` removes
            them all.
    """

    status: CardChangeRequestStatus | Unset = UNSET
    description: None | str | Unset = UNSET
    holder_name: None | str | Unset = UNSET
    holder_address: HolderAddressIn | None | Unset = UNSET
    auto_replenish: AutoReplenishIn | Unset = UNSET
    spending_controls: None | SpendingControls | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.holder_address_in import HolderAddressIn  # noqa: PLC0415
        from ..models.spending_controls import SpendingControls  # noqa: PLC0415

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        holder_name: None | str | Unset
        if isinstance(self.holder_name, Unset):
            holder_name = UNSET
        else:
            holder_name = self.holder_name

        holder_address: dict[str, Any] | None | Unset
        if isinstance(self.holder_address, Unset):
            holder_address = UNSET
        elif isinstance(self.holder_address, HolderAddressIn):
            holder_address = self.holder_address.to_dict()
        else:
            holder_address = self.holder_address

        auto_replenish: dict[str, Any] | Unset = UNSET
        if not isinstance(self.auto_replenish, Unset):
            auto_replenish = self.auto_replenish.to_dict()

        spending_controls: dict[str, Any] | None | Unset
        if isinstance(self.spending_controls, Unset):
            spending_controls = UNSET
        elif isinstance(self.spending_controls, SpendingControls):
            spending_controls = self.spending_controls.to_dict()
        else:
            spending_controls = self.spending_controls

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if status is not UNSET:
            field_dict["status"] = status
        if description is not UNSET:
            field_dict["description"] = description
        if holder_name is not UNSET:
            field_dict["holder_name"] = holder_name
        if holder_address is not UNSET:
            field_dict["holder_address"] = holder_address
        if auto_replenish is not UNSET:
            field_dict["auto_replenish"] = auto_replenish
        if spending_controls is not UNSET:
            field_dict["spending_controls"] = spending_controls

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.auto_replenish_in import AutoReplenishIn  # noqa: PLC0415
        from ..models.holder_address_in import HolderAddressIn  # noqa: PLC0415
        from ..models.spending_controls import SpendingControls  # noqa: PLC0415

        d = dict(src_dict)
        _status = d.pop("status", UNSET)
        status: CardChangeRequestStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = CardChangeRequestStatus(_status)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_holder_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        holder_name = _parse_holder_name(d.pop("holder_name", UNSET))

        def _parse_holder_address(data: object) -> HolderAddressIn | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                holder_address_type_0 = HolderAddressIn.from_dict(data)

                return holder_address_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HolderAddressIn | None | Unset, data)

        holder_address = _parse_holder_address(d.pop("holder_address", UNSET))

        _auto_replenish = d.pop("auto_replenish", UNSET)
        auto_replenish: AutoReplenishIn | Unset
        if isinstance(_auto_replenish, Unset):
            auto_replenish = UNSET
        else:
            auto_replenish = AutoReplenishIn.from_dict(_auto_replenish)

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

        card_change_request = cls(
            status=status,
            description=description,
            holder_name=holder_name,
            holder_address=holder_address,
            auto_replenish=auto_replenish,
            spending_controls=spending_controls,
        )

        return card_change_request
