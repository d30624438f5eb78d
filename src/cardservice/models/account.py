"""Accounts: a balance in one currency, owned by one user."""

from __future__ import annotations

import uuid

from sqlalchemy import BigInteger, CheckConstraint, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, Timestamps, UuidPk


class Account(UuidPk, Timestamps, Base):
    __tablename__ = "accounts"
    __table_args__ = (
        CheckConstraint("balance >= 0", name="balance_not_negative"),
        Index("ix_accounts_user_created", "user_uuid", "created_at", "uuid"),
    )

    user_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.uuid"))
    name: Mapped[str] = mapped_column(String(120))
    type: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    currency: Mapped[str] = mapped_column(String(3))
    balance: Mapped[int] = mapped_column(
        BigInteger, default=0, doc="minor units; always the sum of this account's postings"
    )
