"""A team's spending (docs/teams.md#teams-budgets-requests-receipts): budgets, requests, the receipt
policy and its reminders (migration 20261126_34). What a budget has spent is not a column: it is
read from `card_spend` (transactions/budgets.py)."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, CheckConstraint, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, Timestamps, UuidPk


class TeamBudget(Timestamps, Base):
    __tablename__ = "team_budgets"
    __table_args__ = (
        CheckConstraint("amount > 0", name="amount_positive"),
        CheckConstraint("month_increase >= 0", name="increase_not_negative"),
    )

    user_uuid: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("users.uuid"), primary_key=True, doc="the member"
    )
    team_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("teams.uuid"), index=True)
    currency: Mapped[str] = mapped_column(String(3))
    amount: Mapped[int] = mapped_column(BigInteger, doc="the monthly budget, minor units")
    month_increase: Mapped[int] = mapped_column(
        BigInteger, default=0, doc="approved increases for `increase_month`, minor units"
    )
    increase_month: Mapped[str | None] = mapped_column(String(7), doc="YYYY-MM")


class TeamRequest(UuidPk, Timestamps, Base):
    __tablename__ = "team_requests"
    __table_args__ = (
        Index("ix_team_requests_team", "team_uuid", "created_at", "uuid"),
        Index("ix_team_requests_user", "user_uuid", "created_at", "uuid"),
        CheckConstraint("kind IN ('card', 'budget_increase')", name="kind"),
        CheckConstraint("status IN ('pending', 'approved', 'declined')", name="status"),
        CheckConstraint("(status = 'pending') = (decided_at IS NULL)", name="decided_when_closed"),
    )

    team_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("teams.uuid"))
    user_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.uuid"), doc="who asked")
    kind: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(10), default="pending")
    details: Mapped[str] = mapped_column(Text, doc="JSON: what was asked, amounts in minor units")
    decided_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.uuid"))
    decision_reason: Mapped[str | None] = mapped_column(String(255))
    result: Mapped[str | None] = mapped_column(Text, doc="JSON: what the approval made")
    decided_at: Mapped[datetime | None]


class TeamReceiptPolicy(Timestamps, Base):
    __tablename__ = "team_receipt_policies"
    __table_args__ = (
        CheckConstraint("min_amount >= 0", name="min_amount"),
        CheckConstraint(
            "remind_after_days >= 0 AND freeze_after_days >= remind_after_days", name="timeline"
        ),
    )

    team_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("teams.uuid"), primary_key=True)
    min_amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    remind_after_days: Mapped[int]
    freeze_after_days: Mapped[int]


class ReceiptReminder(Base):
    __tablename__ = "receipt_reminders"

    transaction_uuid: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("transactions.uuid"), primary_key=True
    )
    user_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.uuid"))
    reminded_at: Mapped[datetime]
    frozen_at: Mapped[datetime | None] = mapped_column(
        doc="when its card was frozen for it (a reason the card stays frozen)"
    )
