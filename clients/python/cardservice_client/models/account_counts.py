from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.account_counts_by_status import AccountCountsByStatus


T = TypeVar("T", bound="AccountCounts")


@_attrs_define
class AccountCounts:
    """
    Example:
        {'total': 1, 'by_status': {}}

    Attributes:
        total (int):
        by_status (AccountCountsByStatus):
    """

    total: int
    by_status: AccountCountsByStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        total = self.total

        by_status = self.by_status.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "total": total,
                "by_status": by_status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.account_counts_by_status import AccountCountsByStatus  # noqa: PLC0415

        d = dict(src_dict)
        total = d.pop("total")

        by_status = AccountCountsByStatus.from_dict(d.pop("by_status"))

        account_counts = cls(
            total=total,
            by_status=by_status,
        )

        account_counts.additional_properties = d
        return account_counts

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
