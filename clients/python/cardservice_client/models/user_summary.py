from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.account_counts import AccountCounts
    from ..models.card_counts import CardCounts
    from ..models.cardservice_users_schemas_currency_balances import CardserviceUsersSchemasCurrencyBalances
    from ..models.spend import Spend
    from ..models.user_ref import UserRef


T = TypeVar("T", bound="UserSummary")


@_attrs_define
class UserSummary:
    """
    Example:
        {'user': {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'email': 'ada@example.com', 'name': 'Ada Lovelace',
            'team': {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace', 'role': 'example'}},
            'balances': [{'currency': 'EUR', 'accounts_total': 12.5, 'cards_total': 12.5}], 'accounts': {'total': 1,
            'by_status': {}}, 'cards': {'total': 1, 'active': 1, 'frozen': 1, 'closed': 1, 'favorite': 1}, 'spend':
            [{'currency': 'EUR', 'today': 12.5, 'last_7_days': 12.5, 'this_month': 12.5}], 'unassigned_3ds_codes': 1}

    Attributes:
        user (UserRef):  Example: {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'email': 'ada@example.com', 'name':
            'Ada Lovelace', 'team': {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace', 'role':
            'example'}}.
        balances (list[CardserviceUsersSchemasCurrencyBalances]):
        accounts (AccountCounts):  Example: {'total': 1, 'by_status': {}}.
        cards (CardCounts):  Example: {'total': 1, 'active': 1, 'frozen': 1, 'closed': 1, 'favorite': 1}.
        spend (list[Spend]):
        unassigned_3ds_codes (int):
    """

    user: UserRef
    balances: list[CardserviceUsersSchemasCurrencyBalances]
    accounts: AccountCounts
    cards: CardCounts
    spend: list[Spend]
    unassigned_3ds_codes: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        user = self.user.to_dict()

        balances = []
        for balances_item_data in self.balances:
            balances_item = balances_item_data.to_dict()
            balances.append(balances_item)

        accounts = self.accounts.to_dict()

        cards = self.cards.to_dict()

        spend = []
        for spend_item_data in self.spend:
            spend_item = spend_item_data.to_dict()
            spend.append(spend_item)

        unassigned_3ds_codes = self.unassigned_3ds_codes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "user": user,
                "balances": balances,
                "accounts": accounts,
                "cards": cards,
                "spend": spend,
                "unassigned_3ds_codes": unassigned_3ds_codes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.account_counts import AccountCounts  # noqa: PLC0415
        from ..models.card_counts import CardCounts  # noqa: PLC0415
        from ..models.cardservice_users_schemas_currency_balances import CardserviceUsersSchemasCurrencyBalances  # noqa: PLC0415
        from ..models.spend import Spend  # noqa: PLC0415
        from ..models.user_ref import UserRef  # noqa: PLC0415

        d = dict(src_dict)
        user = UserRef.from_dict(d.pop("user"))

        balances = []
        _balances = d.pop("balances")
        for balances_item_data in _balances:
            balances_item = CardserviceUsersSchemasCurrencyBalances.from_dict(balances_item_data)

            balances.append(balances_item)

        accounts = AccountCounts.from_dict(d.pop("accounts"))

        cards = CardCounts.from_dict(d.pop("cards"))

        spend = []
        _spend = d.pop("spend")
        for spend_item_data in _spend:
            spend_item = Spend.from_dict(spend_item_data)

            spend.append(spend_item)

        unassigned_3ds_codes = d.pop("unassigned_3ds_codes")

        user_summary = cls(
            user=user,
            balances=balances,
            accounts=accounts,
            cards=cards,
            spend=spend,
            unassigned_3ds_codes=unassigned_3ds_codes,
        )

        user_summary.additional_properties = d
        return user_summary

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
