from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SpendingControlsRecord")


@_attrs_define
class SpendingControlsRecord:
    """
    Example:
        {'per_authorization': 12.5, 'daily': 12.5, 'weekly': 12.5, 'monthly': 12.5, 'lifetime': 12.5, 'atm_per_day':
            12.5, 'allowed_tags': ['example'], 'blocked_tags': ['example'], 'allowed_countries': ['example'],
            'blocked_countries': ['example']}

    Attributes:
        per_authorization (Decimal | None):
        daily (Decimal | None):
        weekly (Decimal | None):
        monthly (Decimal | None):
        lifetime (Decimal | None):
        allowed_tags (list[str] | None):
        blocked_tags (list[str]):
        allowed_countries (list[str] | None):
        blocked_countries (list[str]):
        atm_per_day (Decimal | None | Unset):
    """

    per_authorization: Decimal | None
    daily: Decimal | None
    weekly: Decimal | None
    monthly: Decimal | None
    lifetime: Decimal | None
    allowed_tags: list[str] | None
    blocked_tags: list[str]
    allowed_countries: list[str] | None
    blocked_countries: list[str]
    atm_per_day: Decimal | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        per_authorization: Decimal | None
        per_authorization = self.per_authorization

        daily: Decimal | None
        daily = self.daily

        weekly: Decimal | None
        weekly = self.weekly

        monthly: Decimal | None
        monthly = self.monthly

        lifetime: Decimal | None
        lifetime = self.lifetime

        allowed_tags: list[str] | None
        if isinstance(self.allowed_tags, list):
            allowed_tags = self.allowed_tags

        else:
            allowed_tags = self.allowed_tags

        blocked_tags = self.blocked_tags

        allowed_countries: list[str] | None
        if isinstance(self.allowed_countries, list):
            allowed_countries = self.allowed_countries

        else:
            allowed_countries = self.allowed_countries

        blocked_countries = self.blocked_countries

        atm_per_day: Decimal | None | Unset
        if isinstance(self.atm_per_day, Unset):
            atm_per_day = UNSET
        else:
            atm_per_day = self.atm_per_day

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "per_authorization": per_authorization,
                "daily": daily,
                "weekly": weekly,
                "monthly": monthly,
                "lifetime": lifetime,
                "allowed_tags": allowed_tags,
                "blocked_tags": blocked_tags,
                "allowed_countries": allowed_countries,
                "blocked_countries": blocked_countries,
            }
        )
        if atm_per_day is not UNSET:
            field_dict["atm_per_day"] = atm_per_day

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_per_authorization(data: object) -> Decimal | None:
            if data is None:
                return data
            return cast(Decimal | None, data)

        per_authorization = _parse_per_authorization(d.pop("per_authorization"))

        def _parse_daily(data: object) -> Decimal | None:
            if data is None:
                return data
            return cast(Decimal | None, data)

        daily = _parse_daily(d.pop("daily"))

        def _parse_weekly(data: object) -> Decimal | None:
            if data is None:
                return data
            return cast(Decimal | None, data)

        weekly = _parse_weekly(d.pop("weekly"))

        def _parse_monthly(data: object) -> Decimal | None:
            if data is None:
                return data
            return cast(Decimal | None, data)

        monthly = _parse_monthly(d.pop("monthly"))

        def _parse_lifetime(data: object) -> Decimal | None:
            if data is None:
                return data
            return cast(Decimal | None, data)

        lifetime = _parse_lifetime(d.pop("lifetime"))

        def _parse_allowed_tags(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                allowed_tags_type_0 = cast(list[str], data)

                return allowed_tags_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        allowed_tags = _parse_allowed_tags(d.pop("allowed_tags"))

        blocked_tags = cast(list[str], d.pop("blocked_tags"))

        def _parse_allowed_countries(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                allowed_countries_type_0 = cast(list[str], data)

                return allowed_countries_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        allowed_countries = _parse_allowed_countries(d.pop("allowed_countries"))

        blocked_countries = cast(list[str], d.pop("blocked_countries"))

        def _parse_atm_per_day(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        atm_per_day = _parse_atm_per_day(d.pop("atm_per_day", UNSET))

        spending_controls_record = cls(
            per_authorization=per_authorization,
            daily=daily,
            weekly=weekly,
            monthly=monthly,
            lifetime=lifetime,
            allowed_tags=allowed_tags,
            blocked_tags=blocked_tags,
            allowed_countries=allowed_countries,
            blocked_countries=blocked_countries,
            atm_per_day=atm_per_day,
        )

        spending_controls_record.additional_properties = d
        return spending_controls_record

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
