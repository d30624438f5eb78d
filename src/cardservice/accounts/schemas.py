"""Account records."""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from uuid import UUID

from pydantic import BaseModel

from cardservice.cards import CardRecord
from cardservice.values.amounts import MoneyOut


class Owner(BaseModel):
    uuid: UUID
    name: str


class AccountRecord(BaseModel):
    uuid: UUID
    name: str
    type: str
    status: Literal["active", "frozen", "closed"]
    currency: str
    balance: MoneyOut
    cards_count: int
    card_info: CardRecord | None
    owner: Owner
    created_at: datetime
    updated_at: datetime


class AccountsPage(BaseModel):
    items: list[AccountRecord]
    related_team_accounts: list[AccountRecord]
