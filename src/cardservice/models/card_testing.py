"""The card-testing guard's view of a merchant (transactions/card_testing/)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import String, Text
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
