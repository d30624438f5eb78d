from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.authorization_request_force_decline_type_0 import AuthorizationRequestForceDeclineType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="AuthorizationRequest")


@_attrs_define
class AuthorizationRequest:
    """
    Example:
        {'card_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'amount': 12.5, 'currency': 'USD', 'merchant_name':
            'Amazon', 'mcc': '5942', 'merchant_country': 'US', 'merchant_city': 'Seattle', 'tag': 'amazon'}

    Attributes:
        card_uuid (str | UUID): One of the caller's cards.
        amount (Decimal): The purchase amount in `currency` (a JSON number, at most 2 decimals, > 0); held on the
            card with the `card_transaction` fee when approved.
        currency (str): The merchant's currency, ISO 4217; another than the card's is converted at
            `/dictionary/fx-rates` (with the `card_fx` fee), a currency missing there declines
            `currency_not_supported`.
        merchant_name (str): The merchant as the cardholder will see it, 1..120 characters; a `merchant_locked` card
            is locked to it.
        mcc (None | str | Unset): The merchant category code, 4 digits (`5411` groceries).
        merchant_country (None | str | Unset): The merchant's country, ISO 3166-1 alpha-2 (checked against the card's
            country controls).
        merchant_city (None | str | Unset): The merchant's city, 1..120 characters.
        tag (None | str | Unset): The merchant's tag, a slug of `/dictionary/transaction-tags/search` (e.g. `amazon`); a
            blocked tag declines `merchant_blocked`. An unknown slug is refused.
        three_ds_code (None | str | Unset): A 3DS code of this card not yet used (`POST /sandbox/3ds`), 6 digits; wrong
            or used →
            declined `invalid_3ds`.
        force_decline (AuthorizationRequestForceDeclineType0 | None | Unset): Rehearse a decline: any slug of
            `/dictionary/transaction-errors`; the authorization is
            declined with it (the decline fee applies).
    """

    card_uuid: str | UUID
    amount: Decimal
    currency: str
    merchant_name: str
    mcc: None | str | Unset = UNSET
    merchant_country: None | str | Unset = UNSET
    merchant_city: None | str | Unset = UNSET
    tag: None | str | Unset = UNSET
    three_ds_code: None | str | Unset = UNSET
    force_decline: AuthorizationRequestForceDeclineType0 | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        card_uuid: str
        if isinstance(self.card_uuid, UUID):
            card_uuid = str(self.card_uuid)
        else:
            card_uuid = self.card_uuid

        amount = self.amount

        currency = self.currency

        merchant_name = self.merchant_name

        mcc: None | str | Unset
        if isinstance(self.mcc, Unset):
            mcc = UNSET
        else:
            mcc = self.mcc

        merchant_country: None | str | Unset
        if isinstance(self.merchant_country, Unset):
            merchant_country = UNSET
        else:
            merchant_country = self.merchant_country

        merchant_city: None | str | Unset
        if isinstance(self.merchant_city, Unset):
            merchant_city = UNSET
        else:
            merchant_city = self.merchant_city

        tag: None | str | Unset
        if isinstance(self.tag, Unset):
            tag = UNSET
        else:
            tag = self.tag

        three_ds_code: None | str | Unset
        if isinstance(self.three_ds_code, Unset):
            three_ds_code = UNSET
        else:
            three_ds_code = self.three_ds_code

        force_decline: None | str | Unset
        if isinstance(self.force_decline, Unset):
            force_decline = UNSET
        elif isinstance(self.force_decline, AuthorizationRequestForceDeclineType0):
            force_decline = self.force_decline.value
        else:
            force_decline = self.force_decline

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "card_uuid": card_uuid,
                "amount": amount,
                "currency": currency,
                "merchant_name": merchant_name,
            }
        )
        if mcc is not UNSET:
            field_dict["mcc"] = mcc
        if merchant_country is not UNSET:
            field_dict["merchant_country"] = merchant_country
        if merchant_city is not UNSET:
            field_dict["merchant_city"] = merchant_city
        if tag is not UNSET:
            field_dict["tag"] = tag
        if three_ds_code is not UNSET:
            field_dict["three_ds_code"] = three_ds_code
        if force_decline is not UNSET:
            field_dict["force_decline"] = force_decline

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_card_uuid(data: object) -> str | UUID:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                card_uuid_type_0 = UUID(data)

                return card_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | UUID, data)

        card_uuid = _parse_card_uuid(d.pop("card_uuid"))

        amount = d.pop("amount")

        currency = d.pop("currency")

        merchant_name = d.pop("merchant_name")

        def _parse_mcc(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        mcc = _parse_mcc(d.pop("mcc", UNSET))

        def _parse_merchant_country(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        merchant_country = _parse_merchant_country(d.pop("merchant_country", UNSET))

        def _parse_merchant_city(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        merchant_city = _parse_merchant_city(d.pop("merchant_city", UNSET))

        def _parse_tag(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tag = _parse_tag(d.pop("tag", UNSET))

        def _parse_three_ds_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        three_ds_code = _parse_three_ds_code(d.pop("three_ds_code", UNSET))

        def _parse_force_decline(data: object) -> AuthorizationRequestForceDeclineType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                force_decline_type_0 = AuthorizationRequestForceDeclineType0(data)

                return force_decline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AuthorizationRequestForceDeclineType0 | None | Unset, data)

        force_decline = _parse_force_decline(d.pop("force_decline", UNSET))

        authorization_request = cls(
            card_uuid=card_uuid,
            amount=amount,
            currency=currency,
            merchant_name=merchant_name,
            mcc=mcc,
            merchant_country=merchant_country,
            merchant_city=merchant_city,
            tag=tag,
            three_ds_code=three_ds_code,
            force_decline=force_decline,
        )

        return authorization_request
