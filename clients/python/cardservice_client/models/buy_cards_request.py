from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.buy_cards_request_card_type import BuyCardsRequestCardType
from ..models.buy_cards_request_form import BuyCardsRequestForm
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.shipping_in import ShippingIn


T = TypeVar("T", bound="BuyCardsRequest")


@_attrs_define
class BuyCardsRequest:
    """
    Example:
        {'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'bin_uuid': '4f1c2a9e-6b1d-4c3e-9a57-0b7d2e51a001',
            'cards_count': 2, 'start_balance': 25, 'description': 'Team travel', 'external_id': 'order-1001',
            'auto_replenish_amount': 50, 'auto_replenish_min_balance': 10}

    Attributes:
        account_uuid (str | UUID): The account that pays and holds the cards (`GET /accounts`); its currency must be the
            BIN's.
        bin_uuid (str | UUID): The card range to issue from: a `uuid` of `GET /dictionary/bins` with `status:
            available`.
        start_balance (Decimal | Unset): Money put on each card, in the account's currency (a JSON number, at most 2
            decimals, ≥
            0; default 0). The `card_topup` percent fee is charged on it. Default: 0.0.
        description (None | str | Unset): Your label for the cards, up to 255 characters (shown in lists and
            searchable).
        external_id (None | str | Unset): Your idempotency key, 1..128 characters, per user: a repeat with the same body
            returns
            the first answer and buys nothing; another body → 409.
        cards_count (int | Unset): How many cards to buy, 1..100 (default 1); all are bought or none. Default: 1.
        auto_replenish_amount (Decimal | Unset): Turn auto-replenish on: when a card's balance falls strictly below
            `auto_replenish_min_balance`, this much moves from the account to it (a JSON number, at most
            2 decimals, > 0). Send it with `auto_replenish_min_balance` or leave both out.
        auto_replenish_min_balance (Decimal | Unset): The balance under which a card is replenished (a JSON number, at
            most 2 decimals, ≥ 0).
            Comes with `auto_replenish_amount`.
        card_type (BuyCardsRequestCardType | Unset): `multi_use` (default); `single_use`: closed after its first
            capture; `merchant_locked`:
            only the merchant of its first approved authorization may charge it. Default: BuyCardsRequestCardType.MULTI_USE.
        form (BuyCardsRequestForm | Unset): `virtual` (default): active at once; `physical`: a plastic card sent to
            `shipping`,
            `inactive` until its holder activates it; each costs the `card_physical` fee too. Default:
            BuyCardsRequestForm.VIRTUAL.
        shipping (None | ShippingIn | Unset): Where to send physical cards: required with `form: physical`, refused
            otherwise.
    """

    account_uuid: str | UUID
    bin_uuid: str | UUID
    start_balance: Decimal | Unset = Decimal("0")
    description: None | str | Unset = UNSET
    external_id: None | str | Unset = UNSET
    cards_count: int | Unset = 1
    auto_replenish_amount: Decimal | Unset = UNSET
    auto_replenish_min_balance: Decimal | Unset = UNSET
    card_type: BuyCardsRequestCardType | Unset = BuyCardsRequestCardType.MULTI_USE
    form: BuyCardsRequestForm | Unset = BuyCardsRequestForm.VIRTUAL
    shipping: None | ShippingIn | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.shipping_in import ShippingIn  # noqa: PLC0415

        account_uuid: str
        if isinstance(self.account_uuid, UUID):
            account_uuid = str(self.account_uuid)
        else:
            account_uuid = self.account_uuid

        bin_uuid: str
        if isinstance(self.bin_uuid, UUID):
            bin_uuid = str(self.bin_uuid)
        else:
            bin_uuid = self.bin_uuid

        start_balance = self.start_balance

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        cards_count = self.cards_count

        auto_replenish_amount = self.auto_replenish_amount

        auto_replenish_min_balance = self.auto_replenish_min_balance

        card_type: str | Unset = UNSET
        if not isinstance(self.card_type, Unset):
            card_type = self.card_type.value

        form: str | Unset = UNSET
        if not isinstance(self.form, Unset):
            form = self.form.value

        shipping: dict[str, Any] | None | Unset
        if isinstance(self.shipping, Unset):
            shipping = UNSET
        elif isinstance(self.shipping, ShippingIn):
            shipping = self.shipping.to_dict()
        else:
            shipping = self.shipping

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "account_uuid": account_uuid,
                "bin_uuid": bin_uuid,
            }
        )
        if start_balance is not UNSET:
            field_dict["start_balance"] = start_balance
        if description is not UNSET:
            field_dict["description"] = description
        if external_id is not UNSET:
            field_dict["external_id"] = external_id
        if cards_count is not UNSET:
            field_dict["cards_count"] = cards_count
        if auto_replenish_amount is not UNSET:
            field_dict["auto_replenish_amount"] = auto_replenish_amount
        if auto_replenish_min_balance is not UNSET:
            field_dict["auto_replenish_min_balance"] = auto_replenish_min_balance
        if card_type is not UNSET:
            field_dict["card_type"] = card_type
        if form is not UNSET:
            field_dict["form"] = form
        if shipping is not UNSET:
            field_dict["shipping"] = shipping

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.shipping_in import ShippingIn  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_account_uuid(data: object) -> str | UUID:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                account_uuid_type_0 = UUID(data)

                return account_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | UUID, data)

        account_uuid = _parse_account_uuid(d.pop("account_uuid"))

        def _parse_bin_uuid(data: object) -> str | UUID:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                bin_uuid_type_0 = UUID(data)

                return bin_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | UUID, data)

        bin_uuid = _parse_bin_uuid(d.pop("bin_uuid"))

        start_balance = d.pop("start_balance", UNSET)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("external_id", UNSET))

        cards_count = d.pop("cards_count", UNSET)

        auto_replenish_amount = d.pop("auto_replenish_amount", UNSET)

        auto_replenish_min_balance = d.pop("auto_replenish_min_balance", UNSET)

        _card_type = d.pop("card_type", UNSET)
        card_type: BuyCardsRequestCardType | Unset
        if isinstance(_card_type, Unset):
            card_type = UNSET
        else:
            card_type = BuyCardsRequestCardType(_card_type)

        _form = d.pop("form", UNSET)
        form: BuyCardsRequestForm | Unset
        if isinstance(_form, Unset):
            form = UNSET
        else:
            form = BuyCardsRequestForm(_form)

        def _parse_shipping(data: object) -> None | ShippingIn | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                shipping_type_0 = ShippingIn.from_dict(data)

                return shipping_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ShippingIn | Unset, data)

        shipping = _parse_shipping(d.pop("shipping", UNSET))

        buy_cards_request = cls(
            account_uuid=account_uuid,
            bin_uuid=bin_uuid,
            start_balance=start_balance,
            description=description,
            external_id=external_id,
            cards_count=cards_count,
            auto_replenish_amount=auto_replenish_amount,
            auto_replenish_min_balance=auto_replenish_min_balance,
            card_type=card_type,
            form=form,
            shipping=shipping,
        )

        return buy_cards_request
