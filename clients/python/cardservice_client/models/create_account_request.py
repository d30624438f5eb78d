from __future__ import annotations

import builtins
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateAccountRequest")


@_attrs_define
class CreateAccountRequest:
    """
    Example:
        {'user_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Travel EUR', 'currency': 'EUR', 'type': 'budget'}

    Attributes:
        user_uuid (str | UUID): The user who will hold the account.
        name (str): The account's name, as the holder sees it.
        currency (str): ISO 4217, upper case (`USD`), one of the catalogue's currencies; cards bought on the
            account are in it.
        type (str | Unset): An account type of `/dictionary/account-types` (default `main`). Default: 'main'.
    """

    user_uuid: str | UUID
    name: str
    currency: str
    type: str | Unset = "main"

    def to_dict(self) -> dict[str, Any]:
        user_uuid: str
        if isinstance(self.user_uuid, UUID):
            user_uuid = str(self.user_uuid)
        else:
            user_uuid = self.user_uuid

        name = self.name

        currency = self.currency

        type = self.type

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user_uuid": user_uuid,
                "name": name,
                "currency": currency,
            }
        )
        if type is not UNSET:
            field_dict["type"] = type

        return field_dict

    @classmethod
    def from_dict(cls: builtins.type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_user_uuid(data: object) -> str | UUID:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                user_uuid_type_0 = UUID(data)

                return user_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | UUID, data)

        user_uuid = _parse_user_uuid(d.pop("user_uuid"))

        name = d.pop("name")

        currency = d.pop("currency")

        type = d.pop("type", UNSET)

        create_account_request = cls(
            user_uuid=user_uuid,
            name=name,
            currency=currency,
            type=type,
        )

        return create_account_request
