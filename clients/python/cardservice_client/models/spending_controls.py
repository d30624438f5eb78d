from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SpendingControls")


@_attrs_define
class SpendingControls:
    """A card's controls (docs/controls.md#spending-controls): limits in the card's currency (`null`
    = none), tags and countries allowed (`null` = any) and blocked.

        Example:
            {'per_authorization': 250, 'monthly': 2000, 'blocked_tags': ['uber']}

        Attributes:
            per_authorization (Decimal | None | Unset): The most one authorization may take, in the card's currency (a JSON
                number, at most 2
                decimals, > 0); `null`: no limit. Over it → declined `limit_exceeded`.
            daily (Decimal | None | Unset): The most the card may spend in a UTC day (approved authorizations less reversals
                and
                refunds); `null`: no limit.
            weekly (Decimal | None | Unset): The most the card may spend in an ISO week (Monday 00:00 UTC on); `null`: no
                limit.
            monthly (Decimal | None | Unset): The most the card may spend in a calendar month (UTC); `null`: no limit.
            lifetime (Decimal | None | Unset): The most the card may ever spend; `null`: no limit.
            atm_per_day (Decimal | None | Unset): The most the card may withdraw at ATMs in a UTC day (approved withdrawals
                less
                reversals), in the card's currency; `null`: no limit. Over it → declined `limit_exceeded`
                (`61`).
            allowed_tags (list[str] | None | Unset): Only merchants with these tags (slugs of `/dictionary/transaction-
                tags/search`), up to
                200; `null`: any. Another tag → declined `merchant_blocked`.
            blocked_tags (list[str] | Unset): Merchants with these tags are declined `merchant_blocked` (slugs, up to 200;
                default
                none).
            allowed_countries (list[str] | None | Unset): Only merchants in these countries (ISO 3166-1 alpha-2, upper
                case), up to 250; `null`:
                any.
            blocked_countries (list[str] | Unset): Merchants in these countries (ISO 3166-1 alpha-2) are declined
                `merchant_blocked`
                (default none).
    """

    per_authorization: Decimal | None | Unset = UNSET
    daily: Decimal | None | Unset = UNSET
    weekly: Decimal | None | Unset = UNSET
    monthly: Decimal | None | Unset = UNSET
    lifetime: Decimal | None | Unset = UNSET
    atm_per_day: Decimal | None | Unset = UNSET
    allowed_tags: list[str] | None | Unset = UNSET
    blocked_tags: list[str] | Unset = UNSET
    allowed_countries: list[str] | None | Unset = UNSET
    blocked_countries: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        per_authorization: Decimal | None | Unset
        if isinstance(self.per_authorization, Unset):
            per_authorization = UNSET
        else:
            per_authorization = self.per_authorization

        daily: Decimal | None | Unset
        if isinstance(self.daily, Unset):
            daily = UNSET
        else:
            daily = self.daily

        weekly: Decimal | None | Unset
        if isinstance(self.weekly, Unset):
            weekly = UNSET
        else:
            weekly = self.weekly

        monthly: Decimal | None | Unset
        if isinstance(self.monthly, Unset):
            monthly = UNSET
        else:
            monthly = self.monthly

        lifetime: Decimal | None | Unset
        if isinstance(self.lifetime, Unset):
            lifetime = UNSET
        else:
            lifetime = self.lifetime

        atm_per_day: Decimal | None | Unset
        if isinstance(self.atm_per_day, Unset):
            atm_per_day = UNSET
        else:
            atm_per_day = self.atm_per_day

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
        if atm_per_day is not UNSET:
            field_dict["atm_per_day"] = atm_per_day
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

        def _parse_per_authorization(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        per_authorization = _parse_per_authorization(d.pop("per_authorization", UNSET))

        def _parse_daily(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        daily = _parse_daily(d.pop("daily", UNSET))

        def _parse_weekly(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        weekly = _parse_weekly(d.pop("weekly", UNSET))

        def _parse_monthly(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        monthly = _parse_monthly(d.pop("monthly", UNSET))

        def _parse_lifetime(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        lifetime = _parse_lifetime(d.pop("lifetime", UNSET))

        def _parse_atm_per_day(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        atm_per_day = _parse_atm_per_day(d.pop("atm_per_day", UNSET))

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
            atm_per_day=atm_per_day,
            allowed_tags=allowed_tags,
            blocked_tags=blocked_tags,
            allowed_countries=allowed_countries,
            blocked_countries=blocked_countries,
        )

        return spending_controls
