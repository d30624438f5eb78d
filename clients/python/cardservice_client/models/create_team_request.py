from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.create_team_request_kind import CreateTeamRequestKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateTeamRequest")


@_attrs_define
class CreateTeamRequest:
    """
    Example:
        {'kind': 'card', 'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'bin_uuid':
            '4f1c2a9e-6b1d-4c3e-9a57-0b7d2e51a001', 'start_balance': 25, 'description': 'Conference travel'}

    Attributes:
        kind (CreateTeamRequestKind): `card`: a new card on one of the member's accounts; `budget_increase`: more budget
            this month.
        account_uuid (None | str | Unset | UUID): `card`: the member's own account the card is bought on.
        bin_uuid (None | str | Unset | UUID): `card`: the BIN (`GET /dictionary/bins`).
        start_balance (Decimal | None | Unset): `card`: the card's start balance (default 0), as `POST /card/buy` takes
            it.
        description (None | str | Unset): `card`: the card's description.
        amount (Decimal | None | Unset): `budget_increase`: how much more, > 0, at most 2 decimals.
        currency (None | str | Unset): `budget_increase`: the budget's currency.
        reason (None | str | Unset): `budget_increase`: why, for the owner.
    """

    kind: CreateTeamRequestKind
    account_uuid: None | str | Unset | UUID = UNSET
    bin_uuid: None | str | Unset | UUID = UNSET
    start_balance: Decimal | None | Unset = UNSET
    description: None | str | Unset = UNSET
    amount: Decimal | None | Unset = UNSET
    currency: None | str | Unset = UNSET
    reason: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        account_uuid: None | str | Unset
        if isinstance(self.account_uuid, Unset):
            account_uuid = UNSET
        elif isinstance(self.account_uuid, UUID):
            account_uuid = str(self.account_uuid)
        else:
            account_uuid = self.account_uuid

        bin_uuid: None | str | Unset
        if isinstance(self.bin_uuid, Unset):
            bin_uuid = UNSET
        elif isinstance(self.bin_uuid, UUID):
            bin_uuid = str(self.bin_uuid)
        else:
            bin_uuid = self.bin_uuid

        start_balance: Decimal | None | Unset
        if isinstance(self.start_balance, Unset):
            start_balance = UNSET
        else:
            start_balance = self.start_balance

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        amount: Decimal | None | Unset
        if isinstance(self.amount, Unset):
            amount = UNSET
        else:
            amount = self.amount

        currency: None | str | Unset
        if isinstance(self.currency, Unset):
            currency = UNSET
        else:
            currency = self.currency

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
            }
        )
        if account_uuid is not UNSET:
            field_dict["account_uuid"] = account_uuid
        if bin_uuid is not UNSET:
            field_dict["bin_uuid"] = bin_uuid
        if start_balance is not UNSET:
            field_dict["start_balance"] = start_balance
        if description is not UNSET:
            field_dict["description"] = description
        if amount is not UNSET:
            field_dict["amount"] = amount
        if currency is not UNSET:
            field_dict["currency"] = currency
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = CreateTeamRequestKind(d.pop("kind"))

        def _parse_account_uuid(data: object) -> None | str | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                account_uuid_type_0_type_0 = UUID(data)

                return account_uuid_type_0_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | str | Unset | UUID, data)

        account_uuid = _parse_account_uuid(d.pop("account_uuid", UNSET))

        def _parse_bin_uuid(data: object) -> None | str | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                bin_uuid_type_0_type_0 = UUID(data)

                return bin_uuid_type_0_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | str | Unset | UUID, data)

        bin_uuid = _parse_bin_uuid(d.pop("bin_uuid", UNSET))

        def _parse_start_balance(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        start_balance = _parse_start_balance(d.pop("start_balance", UNSET))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_amount(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        amount = _parse_amount(d.pop("amount", UNSET))

        def _parse_currency(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        currency = _parse_currency(d.pop("currency", UNSET))

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))

        create_team_request = cls(
            kind=kind,
            account_uuid=account_uuid,
            bin_uuid=bin_uuid,
            start_balance=start_balance,
            description=description,
            amount=amount,
            currency=currency,
            reason=reason,
        )

        return create_team_request
