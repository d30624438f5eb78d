"""The card-testing guard's view of a merchant and of a BIN (transactions/card_testing/)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base


class CardTestingMerchant(Base):
    __tablename__ = "card_testing_merchants"

    acquirer_id: Mapped[str] = mapped_column(String(11), primary_key=True, doc="DE 32, 11 digits")
    merchant_id: Mapped[str] = mapped_column(String(15), primary_key=True, doc="DE 42")
    failures: Mapped[str] = mapped_column(
        Text, doc="JSON list of the times of its last 10 verification failures"
    )
    blocked_until: Mapped[datetime | None] = mapped_column(
        doc="every 0100 of the merchant answers 59 until then; NULL: never blocked"
    )


class CardTestingBin(Base):
    """A BIN the service issues from, as the guard counts the unknown numbers tried in it."""

    __tablename__ = "card_testing_bins"

    bin: Mapped[str] = mapped_column(String(6), primary_key=True, doc="DE 2's first 6 digits")
    unknown: Mapped[str] = mapped_column(
        Text, doc="JSON list of the times of its last 21 unknown numbers"
    )
    locked_until: Mapped[datetime | None] = mapped_column(
        doc="every 0100 of one of its numbers without 48.92 answers N7 until then"
    )
    unknown_numbers: Mapped[int] = mapped_column(
        Integer,
        default=0,
        server_default="0",
        doc="unknown numbers seen from the start of the window that locked it to now",
    )
