"""The user summary, computed with SQL aggregates over the same rows the endpoints list."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.ledger.money import from_minor
from cardservice.models import Account, Card, Team, Transaction, User
from cardservice.transactions.three_ds import count_unassigned
from cardservice.users.schemas import (
    AccountCounts,
    CardCounts,
    CurrencyBalances,
    Spend,
    TeamRef,
    UserRef,
    UserSummary,
)

STATUSES = ("active", "frozen", "closed")
SPENDING = ("pending", "completed")  # money that left for a purchase and stayed gone


async def _user(session: AsyncSession, user_uuid: uuid.UUID) -> UserRef:
    user = await session.get_one(User, user_uuid)
    team = await session.get(Team, user.team_uuid) if user.team_uuid else None
    return UserRef(
        uuid=user.uuid,
        email=user.email,
        name=user.name,
        team=TeamRef(uuid=team.uuid, name=team.name, role=user.role) if team else None,
    )


async def _balances(session: AsyncSession, user_uuid: uuid.UUID) -> list[CurrencyBalances]:
    accounts = dict(
        (
            await session.execute(
                select(Account.currency, func.sum(Account.balance))
                .where(Account.user_uuid == user_uuid)
                .group_by(Account.currency)
            )
        ).all()
    )
    cards = dict(
        (
            await session.execute(
                select(Card.currency, func.sum(Card.balance))
                .where(Card.user_uuid == user_uuid)
                .group_by(Card.currency)
            )
        ).all()
    )
    return [
        CurrencyBalances(
            currency=currency,
            accounts_total=from_minor(int(accounts.get(currency) or 0)),
            cards_total=from_minor(int(cards.get(currency) or 0)),
        )
        for currency in sorted(set(accounts) | set(cards))
    ]


async def _counts(session: AsyncSession, user_uuid: uuid.UUID) -> tuple[AccountCounts, CardCounts]:
    by_status = dict(
        (
            await session.execute(
                select(Account.status, func.count())
                .where(Account.user_uuid == user_uuid)
                .group_by(Account.status)
            )
        ).all()
    )
    row = (
        await session.execute(
            select(
                func.count(),
                *(
                    func.coalesce(func.sum(case((Card.status == s, 1), else_=0)), 0)
                    for s in STATUSES
                ),
                func.coalesce(func.sum(case((Card.is_favorite.is_(True), 1), else_=0)), 0),
            ).where(Card.user_uuid == user_uuid)
        )
    ).one()
    accounts = AccountCounts(
        total=sum(by_status.values()), by_status={s: int(by_status.get(s, 0)) for s in STATUSES}
    )
    cards = CardCounts(total=row[0], active=row[1], frozen=row[2], closed=row[3], favorite=row[4])
    return accounts, cards


async def _spend(session: AsyncSession, user_uuid: uuid.UUID, now: datetime) -> list[Spend]:
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    week, month = today - timedelta(days=6), today.replace(day=1)

    def since(start: datetime) -> ColumnElement[Any]:
        return func.coalesce(
            func.sum(case((Transaction.created_at >= start, Transaction.amount), else_=0)), 0
        )

    rows = await session.execute(
        select(Transaction.currency, since(today), since(week), since(month))
        .where(
            Transaction.user_uuid == user_uuid,
            Transaction.type == "card_purchase",
            Transaction.status.in_(SPENDING),
            Transaction.created_at >= min(week, month),
        )
        .group_by(Transaction.currency)
        .order_by(Transaction.currency)
    )
    return [
        Spend(
            currency=c,
            today=from_minor(int(d)),
            last_7_days=from_minor(int(w)),
            this_month=from_minor(int(m)),
        )
        for c, d, w, m in rows
    ]


async def user_summary(session: AsyncSession, user_uuid: uuid.UUID, now: datetime) -> UserSummary:
    """Balances, counts, spend (today, last 7 days including today, this month; UTC) and
    the number of unassigned 3DS codes of one user."""
    accounts, cards = await _counts(session, user_uuid)
    return UserSummary(
        user=await _user(session, user_uuid),
        balances=await _balances(session, user_uuid),
        accounts=accounts,
        cards=cards,
        spend=await _spend(session, user_uuid, now),
        unassigned_3ds_codes=await count_unassigned(session, user_uuid, now),
    )
