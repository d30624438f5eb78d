"""Network tokens (docs/network.md#wallet-tokens): a card's device PANs in digital wallets, and the
token service's provisioning requests the issuer decided.

The DPAN is card data: stored only encrypted with the card-number key (`dpan_ciphertext`,
the same cipher and key backend as `cards.pan_ciphertext`) and found by a keyed fingerprint
(`dpan_fingerprint`, the same HMAC as `cards.pan_fingerprint`); only its last four digits
are shown.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, LargeBinary, SmallInteger, String
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, Timestamps, UuidPk, utcnow

WALLETS = ("apple_pay", "google_pay", "samsung_pay", "card_on_file")
TOKEN_STATUSES = ("requires_activation", "active", "suspended", "deleted")
DECISIONS = ("approve", "step_up", "decline")


def _in(values: tuple[str, ...]) -> str:
    return ", ".join(f"'{value}'" for value in values)


class TokenProvisioning(UuidPk, Base):
    """One provisioning request (an 0100 with processing code 900000) and its decision."""

    __tablename__ = "token_provisionings"
    __table_args__ = (
        Index("ix_token_provisionings_reference", "token_reference", "created_at"),
        CheckConstraint(f"wallet IN ({_in(WALLETS)})", name="wallet"),
        CheckConstraint(f"decision IN ({_in(DECISIONS)})", name="decision"),
    )

    user_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.uuid"))
    card_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("cards.uuid"), index=True)
    token_reference: Mapped[str] = mapped_column(String(32), doc="the network's token id (48.76)")
    requestor_id: Mapped[str] = mapped_column(String(11), doc="token requestor id (48.70)")
    wallet: Mapped[str] = mapped_column(String(16))
    device_name: Mapped[str] = mapped_column(String(32))
    risk_score: Mapped[int] = mapped_column(SmallInteger, doc="the wallet's, 1 low … 5 high")
    decision: Mapped[str] = mapped_column(String(8), doc="approve | step_up | decline")
    decided_by: Mapped[str] = mapped_column(
        String(16), doc="rules | endpoint | timeout | endpoint_error | stand_in"
    )
    activation_code_uuid: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("three_ds_codes.uuid"), doc="a step-up's code for the holder"
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class CardToken(UuidPk, Timestamps, Base):
    """A token the network created for a card (its 0620), following the card's life."""

    __tablename__ = "card_tokens"
    __table_args__ = (
        Index("ix_card_tokens_card_created", "card_uuid", "created_at", "uuid"),
        CheckConstraint(f"wallet IN ({_in(WALLETS)})", name="wallet"),
        CheckConstraint(f"status IN ({_in(TOKEN_STATUSES)})", name="status"),
    )

    user_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.uuid"))
    card_uuid: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("cards.uuid"), doc="the card it pays with; a replacement moves it"
    )
    provisioning_uuid: Mapped[uuid.UUID] = mapped_column(ForeignKey("token_provisionings.uuid"))
    token_reference: Mapped[str] = mapped_column(String(32), unique=True)
    dpan_ciphertext: Mapped[bytes] = mapped_column(LargeBinary, doc="the DPAN, encrypted")
    dpan_fingerprint: Mapped[str] = mapped_column(
        String(64), unique=True, doc="HMAC-SHA256 of the DPAN, as cards.pan_fingerprint"
    )
    last4: Mapped[str] = mapped_column(String(4))
    expiry_month: Mapped[int]
    expiry_year: Mapped[int]
    wallet: Mapped[str] = mapped_column(String(16))
    device_name: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(24))
    activation_failures: Mapped[int] = mapped_column(
        default=0, server_default="0", doc="wrong activation codes sent for it; the 3rd deletes it"
    )
