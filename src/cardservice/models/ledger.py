"""Journal entries and their postings: the only record of money moving.

A posting belongs to exactly one holder: a user account, a card, or a system book
(`funding`, `holds`, `merchants`, `fees`). Postings of an entry sum to zero per currency.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Date,
    ForeignKey,
    Index,
    SmallInteger,
    String,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, BigId, utcnow


class JournalEntry(Base):
    __tablename__ = "journal_entries"
    __table_args__ = (
        Index("ix_journal_entries_chain_seq", "chain_seq", unique=True),
        # the entries waiting for the sealer (ledger.sealer; migration 20261127_40)
        Index("ix_journal_entries_unsealed", "id", postgresql_where=text("chain_seq IS NULL"),
              sqlite_where=text("chain_seq IS NULL")),
    )  # fmt: skip

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(32))
    reference: Mapped[uuid.UUID | None] = mapped_column(doc="transaction uuid")
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    chain_seq: Mapped[int | None] = mapped_column(
        BigInteger, doc="place in the hash chain, in seal order (ledger.sealer); NULL until sealed"
    )
    hash: Mapped[str | None] = mapped_column(
        String(64), doc="SHA-256 (hex) of the canonical content and the previous hash"
    )


class LedgerChainHead(Base):
    """The hash chain's head: one row, written by the sealer only (ledger.sealer)."""

    __tablename__ = "ledger_chain_head"
    __table_args__ = (CheckConstraint("id = 1", name="one_row"),)

    id: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    seq: Mapped[int] = mapped_column(BigInteger, doc="the last entry's chain_seq")
    hash: Mapped[str] = mapped_column(String(64), doc="the last entry's hash")


class LedgerDayTotal(Base):
    """Postings added up per UTC day, holder class (`account`, `card` or a book), entry kind
    and currency: the checkpoints of balances at an instant (ledger.books)."""

    __tablename__ = "ledger_day_totals"

    day: Mapped[date] = mapped_column(Date, primary_key=True)
    holder_class: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(32), primary_key=True)
    currency: Mapped[str] = mapped_column(String(3), primary_key=True)
    amount: Mapped[int] = mapped_column(BigInteger, doc="signed minor units")
    postings: Mapped[int] = mapped_column(BigInteger, doc="how many postings")


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
        # (holder, entry_id, amount): a holder's postings in a range of entries, index-only
        # (balances at an instant, ledger.books; migration 20261124_28)
        Index("ix_postings_account", "account_uuid", "entry_id", "amount"),
        Index("ix_postings_card", "card_uuid", "entry_id", "amount"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    # on PostgreSQL the entry's existence (written by the posting's own statement) is checked
    # by `postings_checked` in place of this key (migration 20261128_04)
    entry_id: Mapped[int] = mapped_column(ForeignKey("journal_entries.id"), index=True)
    # on PostgreSQL the holder's existence is checked with its currency by `postings_checked`
    # in place of these keys (migration 20261127_52)
    account_uuid: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("accounts.uuid"))
    card_uuid: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("cards.uuid"))
    system_book: Mapped[str | None] = mapped_column(String(32))
    currency: Mapped[str] = mapped_column(String(3))
    amount: Mapped[int] = mapped_column(BigInteger, doc="signed minor units; + raises the holder")


class LedgerHolderDay(Base):
    """An account's or a card's postings added up per UTC day and currency: the checkpoints
    of its balance at an instant (ledger.books). `holder` is `account:<uuid>` or
    `card:<uuid>`, as the hash chain's canonical form writes it."""

    __tablename__ = "ledger_holder_days"

    holder: Mapped[str] = mapped_column(String(48), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    currency: Mapped[str] = mapped_column(String(3), primary_key=True)
    amount: Mapped[int] = mapped_column(BigInteger, doc="signed minor units")
