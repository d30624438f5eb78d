"""Journal entries and their postings: the only record of money moving.

A posting belongs to exactly one holder: a user account, a card, or a system book
(`funding`, `holds`, `merchants`, `fees`). Postings of an entry sum to zero per currency.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, CheckConstraint, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, BigId, utcnow


class JournalEntry(Base):
    __tablename__ = "journal_entries"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(32))
    reference: Mapped[uuid.UUID | None] = mapped_column(index=True, doc="transaction uuid")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Posting(Base):
    __tablename__ = "postings"
    __table_args__ = (
        CheckConstraint(
            "(CASE WHEN account_uuid IS NULL THEN 0 ELSE 1 END)"
            " + (CASE WHEN card_uuid IS NULL THEN 0 ELSE 1 END)"
            " + (CASE WHEN system_book IS NULL THEN 0 ELSE 1 END) = 1",
            name="one_holder",
        ),
        CheckConstraint("amount <> 0", name="amount_not_zero"),
        Index("ix_postings_account", "account_uuid"),
        Index("ix_postings_card", "card_uuid"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    entry_id: Mapped[int] = mapped_column(ForeignKey("journal_entries.id"), index=True)
    account_uuid: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("accounts.uuid"))
    card_uuid: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("cards.uuid"))
    system_book: Mapped[str | None] = mapped_column(String(32))
    currency: Mapped[str] = mapped_column(String(3))
    amount: Mapped[int] = mapped_column(BigInteger, doc="signed minor units; + raises the holder")
