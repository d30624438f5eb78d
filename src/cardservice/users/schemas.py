"""The user summary."""

from __future__ import annotations

from uuid import UUID

from pydantic import BaseModel

from cardservice.values.amounts import MoneyOut


class TeamRef(BaseModel):
    uuid: UUID
    name: str
    role: str | None


class UserRef(BaseModel):
    uuid: UUID
    email: str
    name: str
    team: TeamRef | None


class CurrencyBalances(BaseModel):
    currency: str
    accounts_total: MoneyOut
    cards_total: MoneyOut


class AccountCounts(BaseModel):
    total: int
    by_status: dict[str, int]


class CardCounts(BaseModel):
    total: int
    active: int
    frozen: int
    closed: int
    favorite: int


class Spend(BaseModel):
    currency: str
    today: MoneyOut
    last_7_days: MoneyOut
    this_month: MoneyOut


class UserSummary(BaseModel):
    user: UserRef
    balances: list[CurrencyBalances]
    accounts: AccountCounts
    cards: CardCounts
    spend: list[Spend]
    unassigned_3ds_codes: int


class SpendRow(BaseModel):
    """One group's spend (`GET /user/spend`): approved card purchases and ATM withdrawals
    less refunds."""

    key: str | None
    name: str
    count: int
    amount: MoneyOut
    currency: str
