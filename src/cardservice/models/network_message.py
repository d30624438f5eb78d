"""The network's message keys: one row per ISO 8583 message answered that moves money."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, BigId


class NetworkMessage(Base):
    __tablename__ = "network_messages"
    __table_args__ = (
        UniqueConstraint(
            "acquirer_id", "stan", "transmitted", "mti_class", name="uq_network_messages_key"
        ),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    acquirer_id: Mapped[str] = mapped_column(String(11), doc="DE 32")
    stan: Mapped[str] = mapped_column(String(6), doc="DE 11")
    transmitted: Mapped[str] = mapped_column(String(10), doc="DE 7, MMDDhhmmss UTC")
    mti_class: Mapped[str] = mapped_column(
        String(3), doc="the MTI less its repeat digit: 010, 012, 022, 040, 042"
    )
    transaction_uuid: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("transactions.uuid"))
    response_code: Mapped[str | None] = mapped_column(
        String(2), doc="DE 39 of the first answer; NULL: a reversal waits for this original"
    )
    answer: Mapped[str] = mapped_column(
        Text, doc="JSON of the answer's own fields (38, 39, 54); a waiting reversal's 95"
    )
    created_at: Mapped[datetime]
