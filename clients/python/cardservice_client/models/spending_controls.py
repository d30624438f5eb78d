from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SpendingControls")


@_attrs_define
class SpendingControls:
    """A card's controls (API.md §10): limits in the card's currency (`null` = none), tags
    and countries allowed (`null` = any) and blocked.

        Example:
            {'per_authorization': 12.5, 'daily': 12.5, 'weekly': 12.5, 'monthly': 12.5, 'lifetime': 12.5, 'allowed_tags':
                ['bank-transfer'], 'blocked_tags': ['bank-transfer'], 'allowed_countries': ['DE'], 'blocked_countries': ['DE']}

        Attributes:
            per_authorization (Decimal | Unset):
            daily (Decimal | Unset):
            weekly (Decimal | Unset):
            monthly (Decimal | Unset):
            lifetime (Decimal | Unset):
            allowed_tags (list[str] | None | Unset):
            blocked_tags (list[str] | Unset):
            allowed_countries (list[str] | None | Unset):
            blocked_countries (list[str] | Unset):
    """

    per_authorization: Decimal | Unset = UNSET
    daily: Decimal | Unset = UNSET
    weekly: Decimal | Unset = UNSET
    monthly: Decimal | Unset = UNSET
    lifetime: Decimal | Unset = UNSET
    allowed_tags: list[str] | None | Unset = UNSET
    blocked_tags: list[str] | Unset = UNSET
    allowed_countries: list[str] | None | Unset = UNSET
    blocked_countries: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        per_authorization = self.per_authorization

        daily = self.daily

        weekly = self.weekly

        monthly = self.monthly

        lifetime = self.lifetime

        allowed_tags: list[str] | None | Unset
        if isinstance(self.allowed_tags, Unset):
            allowed_tags = UNSET
        elif isinstance(self.allowed_tags, list):
            allowed_tags = self.allowed_tags

        else:
            allowed_tags = self.allowed_tags

        blocked_tags: list[str] | Unset = UNSET
        if not isinstance(self.blocked_tags, Unset):
            blocked_tags = self.blocked_tags

        allowed_countries: list[str] | None | Unset
        if isinstance(self.allowed_countries, Unset):
            allowed_countries = UNSET
        elif isinstance(self.allowed_countries, list):
            allowed_countries = self.allowed_countries

        else:
            allowed_countries = self.allowed_countries

        blocked_countries: list[str] | Unset = UNSET
        if not isinstance(self.blocked_countries, Unset):
            blocked_countries = self.blocked_countries

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if per_authorization is not UNSET:
            field_dict["per_authorization"] = per_authorization
        if daily is not UNSET:
            field_dict["daily"] = daily
        if weekly is not UNSET:
            field_dict["weekly"] = weekly
        if monthly is not UNSET:
            field_dict["monthly"] = monthly
        if lifetime is not UNSET:
            field_dict["lifetime"] = lifetime
        if allowed_tags is not UNSET:
            field_dict["allowed_tags"] = allowed_tags
        if blocked_tags is not UNSET:
            field_dict["blocked_tags"] = blocked_tags
        if allowed_countries is not UNSET:
            field_dict["allowed_countries"] = allowed_countries
        if blocked_countries is not UNSET:
            field_dict["blocked_countries"] = blocked_countries

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        per_authorization = d.pop("per_authorization", UNSET)

        daily = d.pop("daily", UNSET)

        weekly = d.pop("weekly", UNSET)

        monthly = d.pop("monthly", UNSET)

        lifetime = d.pop("lifetime", UNSET)

        def _parse_allowed_tags(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                allowed_tags_type_0 = cast(list[str], data)

                return allowed_tags_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        allowed_tags = _parse_allowed_tags(d.pop("allowed_tags", UNSET))

        blocked_tags = cast(list[str], d.pop("blocked_tags", UNSET))

        def _parse_allowed_countries(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                allowed_countries_type_0 = cast(list[str], data)

                return allowed_countries_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        allowed_countries = _parse_allowed_countries(d.pop("allowed_countries", UNSET))

        blocked_countries = cast(list[str], d.pop("blocked_countries", UNSET))

        spending_controls = cls(
            per_authorization=per_authorization,
            daily=daily,
            weekly=weekly,
            monthly=monthly,
            lifetime=lifetime,
            allowed_tags=allowed_tags,
            blocked_tags=blocked_tags,
            allowed_countries=allowed_countries,
            blocked_countries=blocked_countries,
        )

        return spending_controls
