from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.change_account_request_status import ChangeAccountRequestStatus

T = TypeVar("T", bound="ChangeAccountRequest")


@_attrs_define
class ChangeAccountRequest:
    """
    Example:
        {'status': 'frozen'}

    Attributes:
        status (ChangeAccountRequestStatus): `frozen` (its cards decline `account_inactive`), `closed` (final) or
            `active`.
    """

    status: ChangeAccountRequestStatus

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = ChangeAccountRequestStatus(d.pop("status"))

        change_account_request = cls(
            status=status,
        )

        return change_account_request
