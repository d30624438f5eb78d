from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.team_card_record_card_type import TeamCardRecordCardType
from ..models.team_card_record_closed_reason_type_0 import TeamCardRecordClosedReasonType0
from ..models.team_card_record_form import TeamCardRecordForm
from ..models.team_card_record_frozen_reason_type_0 import TeamCardRecordFrozenReasonType0
from ..models.team_card_record_status import TeamCardRecordStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.auto_replenish import AutoReplenish
    from ..models.card_holder import CardHolder
    from ..models.fulfilment import Fulfilment
    from ..models.holder_address import HolderAddress
    from ..models.shipping_address import ShippingAddress
    from ..models.spending_controls_record import SpendingControlsRecord


T = TypeVar("T", bound="TeamCardRecord")


@_attrs_define
class TeamCardRecord:
    """A member's card as the team's owner lists it: the card record and its holder.

    Example:
        {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'bin':
            '424242', 'brand': 'visa', 'mask': '424242******4242', 'last4': '4242', 'expiry_month': 12, 'expiry_year': 2029,
            'currency': 'EUR', 'balance': 12.5, 'status': 'active', 'is_favorite': True, 'sort_order': 1, 'description':
            'Team travel', 'external_id': 'order-1001', 'holder_name': 'Ada Lovelace', 'holder_address': {'line1': 'Unter
            den Linden 1', 'line2': 'example', 'city': 'Berlin', 'state': 'example', 'postal_code': '10117', 'country':
            'DE'}, 'auto_replenish': {'enabled': True, 'amount': 12.5, 'min_balance': 12.5}, 'spending_controls':
            {'per_authorization': 12.5, 'daily': 12.5, 'weekly': 12.5, 'monthly': 12.5, 'lifetime': 12.5, 'atm_per_day':
            12.5, 'allowed_tags': ['example'], 'blocked_tags': ['example'], 'allowed_countries': ['example'],
            'blocked_countries': ['example']}, 'created_at': '2026-03-19T10:15:00Z', 'updated_at': '2026-03-19T10:15:00Z',
            'card_type': 'multi_use', 'locked_merchant': 'example', 'closed_reason': 'lost', 'replaces':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'replaced_by': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'frozen_reason':
            'suspected_fraud', 'form': 'virtual', 'shipping': {'name': 'Ada Lovelace', 'line1': 'Unter den Linden 1',
            'line2': 'example', 'city': 'Berlin', 'postal_code': '10117', 'country': 'DE'}, 'fulfilment': {'status':
            'ordered', 'carrier': 'example', 'tracking': 'example', 'updated_at': '2026-03-19T10:15:00Z'}, 'pin_set': True,
            'pin_blocked': True, 'holder': {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace'}}

    Attributes:
        uuid (UUID):
        account_uuid (UUID):
        bin (str):
        brand (str):
        mask (str):
        last4 (str):
        expiry_month (int):
        expiry_year (int):
        currency (str):
        balance (Decimal):
        status (TeamCardRecordStatus): inactive: a physical card until its holder activates it (`POST
            /card/{cardUuid}/activate`)
        is_favorite (bool):
        sort_order (int):
        description (None | str):
        external_id (None | str):
        auto_replenish (AutoReplenish):  Example: {'enabled': True, 'amount': 12.5, 'min_balance': 12.5}.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        holder (CardHolder):  Example: {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace'}.
        holder_name (None | str | Unset):
        holder_address (HolderAddress | None | Unset):
        spending_controls (None | SpendingControlsRecord | Unset):
        card_type (TeamCardRecordCardType | Unset):  Default: TeamCardRecordCardType.MULTI_USE.
        locked_merchant (None | str | Unset): a merchant_locked card's merchant, once its first approval set it
        closed_reason (None | TeamCardRecordClosedReasonType0 | Unset):
        replaces (None | Unset | UUID):
        replaced_by (None | Unset | UUID):
        frozen_reason (None | TeamCardRecordFrozenReasonType0 | Unset): suspected_fraud: the card-testing guard froze
            the card (its 5th wrong expiry or CVV2 within 24 h); cleared when its holder sets its status. receipt_missing:
            the team's receipt policy froze it until the receipts of its purchases are linked (docs/teams.md). operator: the
            program's operator froze it; only the operator unfreezes it (docs/operations.md). owner: the team's owner froze
            it; only a team owner unfreezes it (docs/teams.md)
        form (TeamCardRecordForm | Unset):  Default: TeamCardRecordForm.VIRTUAL.
        shipping (None | ShippingAddress | Unset): a physical card's delivery address; null for a virtual card
        fulfilment (Fulfilment | None | Unset): a physical card's production and delivery: ordered → printed → shipped →
            delivered, or returned from shipped; null for a virtual card
        pin_set (bool | Unset): its holder has set a PIN Default: False.
        pin_blocked (bool | Unset): the PIN is blocked (too many wrong PINs) until a new one is set Default: False.
    """

    uuid: UUID
    account_uuid: UUID
    bin: str
    brand: str
    mask: str
    last4: str
    expiry_month: int
    expiry_year: int
    currency: str
    balance: Decimal
    status: TeamCardRecordStatus
    is_favorite: bool
    sort_order: int
    description: None | str
    external_id: None | str
    auto_replenish: AutoReplenish
    created_at: datetime.datetime
    updated_at: datetime.datetime
    holder: CardHolder
    holder_name: None | str | Unset = UNSET
    holder_address: HolderAddress | None | Unset = UNSET
    spending_controls: None | SpendingControlsRecord | Unset = UNSET
    card_type: TeamCardRecordCardType | Unset = TeamCardRecordCardType.MULTI_USE
    locked_merchant: None | str | Unset = UNSET
    closed_reason: None | TeamCardRecordClosedReasonType0 | Unset = UNSET
    replaces: None | Unset | UUID = UNSET
    replaced_by: None | Unset | UUID = UNSET
    frozen_reason: None | TeamCardRecordFrozenReasonType0 | Unset = UNSET
    form: TeamCardRecordForm | Unset = TeamCardRecordForm.VIRTUAL
    shipping: None | ShippingAddress | Unset = UNSET
    fulfilment: Fulfilment | None | Unset = UNSET
    pin_set: bool | Unset = False
    pin_blocked: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.fulfilment import Fulfilment  # noqa: PLC0415
        from ..models.holder_address import HolderAddress  # noqa: PLC0415
        from ..models.shipping_address import ShippingAddress  # noqa: PLC0415
        from ..models.spending_controls_record import SpendingControlsRecord  # noqa: PLC0415

        uuid = str(self.uuid)

        account_uuid = str(self.account_uuid)

        bin = self.bin

        brand = self.brand

        mask = self.mask

        last4 = self.last4

        expiry_month = self.expiry_month

        expiry_year = self.expiry_year

        currency = self.currency

        balance = self.balance

        status = self.status.value

        is_favorite = self.is_favorite

        sort_order = self.sort_order

        description: None | str
        description = self.description

        external_id: None | str
        external_id = self.external_id

        auto_replenish = self.auto_replenish.to_dict()

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        holder = self.holder.to_dict()

        holder_name: None | str | Unset
        if isinstance(self.holder_name, Unset):
            holder_name = UNSET
        else:
            holder_name = self.holder_name

        holder_address: dict[str, Any] | None | Unset
        if isinstance(self.holder_address, Unset):
            holder_address = UNSET
        elif isinstance(self.holder_address, HolderAddress):
            holder_address = self.holder_address.to_dict()
        else:
            holder_address = self.holder_address

        spending_controls: dict[str, Any] | None | Unset
        if isinstance(self.spending_controls, Unset):
            spending_controls = UNSET
        elif isinstance(self.spending_controls, SpendingControlsRecord):
            spending_controls = self.spending_controls.to_dict()
        else:
            spending_controls = self.spending_controls

        card_type: str | Unset = UNSET
        if not isinstance(self.card_type, Unset):
            card_type = self.card_type.value

        locked_merchant: None | str | Unset
        if isinstance(self.locked_merchant, Unset):
            locked_merchant = UNSET
        else:
            locked_merchant = self.locked_merchant

        closed_reason: None | str | Unset
        if isinstance(self.closed_reason, Unset):
            closed_reason = UNSET
        elif isinstance(self.closed_reason, TeamCardRecordClosedReasonType0):
            closed_reason = self.closed_reason.value
        else:
            closed_reason = self.closed_reason

        replaces: None | str | Unset
        if isinstance(self.replaces, Unset):
            replaces = UNSET
        elif isinstance(self.replaces, UUID):
            replaces = str(self.replaces)
        else:
            replaces = self.replaces

        replaced_by: None | str | Unset
        if isinstance(self.replaced_by, Unset):
            replaced_by = UNSET
        elif isinstance(self.replaced_by, UUID):
            replaced_by = str(self.replaced_by)
        else:
            replaced_by = self.replaced_by

        frozen_reason: None | str | Unset
        if isinstance(self.frozen_reason, Unset):
            frozen_reason = UNSET
        elif isinstance(self.frozen_reason, TeamCardRecordFrozenReasonType0):
            frozen_reason = self.frozen_reason.value
        else:
            frozen_reason = self.frozen_reason

        form: str | Unset = UNSET
        if not isinstance(self.form, Unset):
            form = self.form.value

        shipping: dict[str, Any] | None | Unset
        if isinstance(self.shipping, Unset):
            shipping = UNSET
        elif isinstance(self.shipping, ShippingAddress):
            shipping = self.shipping.to_dict()
        else:
            shipping = self.shipping

        fulfilment: dict[str, Any] | None | Unset
        if isinstance(self.fulfilment, Unset):
            fulfilment = UNSET
        elif isinstance(self.fulfilment, Fulfilment):
            fulfilment = self.fulfilment.to_dict()
        else:
            fulfilment = self.fulfilment

        pin_set = self.pin_set

        pin_blocked = self.pin_blocked

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uuid": uuid,
                "account_uuid": account_uuid,
                "bin": bin,
                "brand": brand,
                "mask": mask,
                "last4": last4,
                "expiry_month": expiry_month,
                "expiry_year": expiry_year,
                "currency": currency,
                "balance": balance,
                "status": status,
                "is_favorite": is_favorite,
                "sort_order": sort_order,
                "description": description,
                "external_id": external_id,
                "auto_replenish": auto_replenish,
                "created_at": created_at,
                "updated_at": updated_at,
                "holder": holder,
            }
        )
        if holder_name is not UNSET:
            field_dict["holder_name"] = holder_name
        if holder_address is not UNSET:
            field_dict["holder_address"] = holder_address
        if spending_controls is not UNSET:
            field_dict["spending_controls"] = spending_controls
        if card_type is not UNSET:
            field_dict["card_type"] = card_type
        if locked_merchant is not UNSET:
            field_dict["locked_merchant"] = locked_merchant
        if closed_reason is not UNSET:
            field_dict["closed_reason"] = closed_reason
        if replaces is not UNSET:
            field_dict["replaces"] = replaces
        if replaced_by is not UNSET:
            field_dict["replaced_by"] = replaced_by
        if frozen_reason is not UNSET:
            field_dict["frozen_reason"] = frozen_reason
        if form is not UNSET:
            field_dict["form"] = form
        if shipping is not UNSET:
            field_dict["shipping"] = shipping
        if fulfilment is not UNSET:
            field_dict["fulfilment"] = fulfilment
        if pin_set is not UNSET:
            field_dict["pin_set"] = pin_set
        if pin_blocked is not UNSET:
            field_dict["pin_blocked"] = pin_blocked

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.auto_replenish import AutoReplenish  # noqa: PLC0415
        from ..models.card_holder import CardHolder  # noqa: PLC0415
        from ..models.fulfilment import Fulfilment  # noqa: PLC0415
        from ..models.holder_address import HolderAddress  # noqa: PLC0415
        from ..models.shipping_address import ShippingAddress  # noqa: PLC0415
        from ..models.spending_controls_record import SpendingControlsRecord  # noqa: PLC0415

        d = dict(src_dict)
        uuid = UUID(d.pop("uuid"))

        account_uuid = UUID(d.pop("account_uuid"))

        bin = d.pop("bin")

        brand = d.pop("brand")

        mask = d.pop("mask")

        last4 = d.pop("last4")

        expiry_month = d.pop("expiry_month")

        expiry_year = d.pop("expiry_year")

        currency = d.pop("currency")

        balance = d.pop("balance")

        status = TeamCardRecordStatus(d.pop("status"))

        is_favorite = d.pop("is_favorite")

        sort_order = d.pop("sort_order")

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        def _parse_external_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        external_id = _parse_external_id(d.pop("external_id"))

        auto_replenish = AutoReplenish.from_dict(d.pop("auto_replenish"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        holder = CardHolder.from_dict(d.pop("holder"))

        def _parse_holder_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        holder_name = _parse_holder_name(d.pop("holder_name", UNSET))

        def _parse_holder_address(data: object) -> HolderAddress | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                holder_address_type_0 = HolderAddress.from_dict(data)

                return holder_address_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HolderAddress | None | Unset, data)

        holder_address = _parse_holder_address(d.pop("holder_address", UNSET))

        def _parse_spending_controls(data: object) -> None | SpendingControlsRecord | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                spending_controls_type_0 = SpendingControlsRecord.from_dict(data)

                return spending_controls_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SpendingControlsRecord | Unset, data)

        spending_controls = _parse_spending_controls(d.pop("spending_controls", UNSET))

        _card_type = d.pop("card_type", UNSET)
        card_type: TeamCardRecordCardType | Unset
        if isinstance(_card_type, Unset):
            card_type = UNSET
        else:
            card_type = TeamCardRecordCardType(_card_type)

        def _parse_locked_merchant(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        locked_merchant = _parse_locked_merchant(d.pop("locked_merchant", UNSET))

        def _parse_closed_reason(data: object) -> None | TeamCardRecordClosedReasonType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                closed_reason_type_0 = TeamCardRecordClosedReasonType0(data)

                return closed_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TeamCardRecordClosedReasonType0 | Unset, data)

        closed_reason = _parse_closed_reason(d.pop("closed_reason", UNSET))

        def _parse_replaces(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                replaces_type_0 = UUID(data)

                return replaces_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        replaces = _parse_replaces(d.pop("replaces", UNSET))

        def _parse_replaced_by(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                replaced_by_type_0 = UUID(data)

                return replaced_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        replaced_by = _parse_replaced_by(d.pop("replaced_by", UNSET))

        def _parse_frozen_reason(data: object) -> None | TeamCardRecordFrozenReasonType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                frozen_reason_type_0 = TeamCardRecordFrozenReasonType0(data)

                return frozen_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TeamCardRecordFrozenReasonType0 | Unset, data)

        frozen_reason = _parse_frozen_reason(d.pop("frozen_reason", UNSET))

        _form = d.pop("form", UNSET)
        form: TeamCardRecordForm | Unset
        if isinstance(_form, Unset):
            form = UNSET
        else:
            form = TeamCardRecordForm(_form)

        def _parse_shipping(data: object) -> None | ShippingAddress | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                shipping_type_0 = ShippingAddress.from_dict(data)

                return shipping_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ShippingAddress | Unset, data)

        shipping = _parse_shipping(d.pop("shipping", UNSET))

        def _parse_fulfilment(data: object) -> Fulfilment | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                fulfilment_type_0 = Fulfilment.from_dict(data)

                return fulfilment_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Fulfilment | None | Unset, data)

        fulfilment = _parse_fulfilment(d.pop("fulfilment", UNSET))

        pin_set = d.pop("pin_set", UNSET)

        pin_blocked = d.pop("pin_blocked", UNSET)

        team_card_record = cls(
            uuid=uuid,
            account_uuid=account_uuid,
            bin=bin,
            brand=brand,
            mask=mask,
            last4=last4,
            expiry_month=expiry_month,
            expiry_year=expiry_year,
            currency=currency,
            balance=balance,
            status=status,
            is_favorite=is_favorite,
            sort_order=sort_order,
            description=description,
            external_id=external_id,
            auto_replenish=auto_replenish,
            created_at=created_at,
            updated_at=updated_at,
            holder=holder,
            holder_name=holder_name,
            holder_address=holder_address,
            spending_controls=spending_controls,
            card_type=card_type,
            locked_merchant=locked_merchant,
            closed_reason=closed_reason,
            replaces=replaces,
            replaced_by=replaced_by,
            frozen_reason=frozen_reason,
            form=form,
            shipping=shipping,
            fulfilment=fulfilment,
            pin_set=pin_set,
            pin_blocked=pin_blocked,
        )

        team_card_record.additional_properties = d
        return team_card_record

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
