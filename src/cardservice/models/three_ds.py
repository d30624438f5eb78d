"""3DS one-time codes received for a user's cards (code kept encrypted at rest)."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, Index, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, UuidPk, utcnow


class ThreeDsCode(UuidPk, Base):
    __tablename__ = "three_ds_codes"
    __table_args__ = (Index("ix_three_ds_codes_user_created", "user_uuid", "created_at"),)

    user_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.uuid"), index=True)
    card_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("cards.uuid"), index=True)
    code_ciphertext: Mapped[bytes] = mapped_column(LargeBinary)
    merchant_name: Mapped[str] = mapped_column(String(120))
    amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]
    transaction_uuid: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("transactions.uuid"))
