"""3DS one-time codes: issued for a card, listed while unassigned, used up by an authorization."""

from __future__ import annotations

import hmac
import secrets
import uuid
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.cards.numbers import mask
from cardservice.cards.service import CardNotFound
from cardservice.ledger.money import from_minor
from cardservice.models import Card, ThreeDsCode
from cardservice.security import CardCipher
from cardservice.sql import Tx, as_uuid
from cardservice.transactions.schemas import ThreeDsRecord


def _record(row: ThreeDsCode, card: Card, code: str) -> ThreeDsRecord:
    return ThreeDsRecord(
        uuid=row.uuid,
        code=code,
        card_uuid=row.card_uuid,
        card_mask=mask(card.bin, card.last4),
        merchant_name=row.merchant_name,
        amount=from_minor(row.amount),
        currency=row.currency,
        created_at=row.created_at,
        expires_at=row.expires_at,
    )


async def issue_code(
    session: AsyncSession,
    cipher: CardCipher,
    user_uuid: uuid.UUID,
    card_uuid: uuid.UUID,
    merchant_name: str,
    amount: int,
    currency: str,
    ttl: timedelta,
    now: datetime,
) -> ThreeDsRecord:
    """A new 6-digit code for one of the user's cards, kept encrypted at rest."""
    card = await session.scalar(
        select(Card).where(Card.uuid == card_uuid, Card.user_uuid == user_uuid)
    )
    if card is None:
        raise CardNotFound()
    code = f"{secrets.randbelow(1_000_000):06d}"
    row = ThreeDsCode(
        user_uuid=user_uuid,
        card_uuid=card.uuid,
        code_ciphertext=cipher.encrypt(code),
        merchant_name=merchant_name,
        amount=amount,
        currency=currency,
        created_at=now,
        expires_at=now + ttl,
    )
    session.add(row)
    await session.flush()
    return _record(row, card, code)


def _unassigned(now: datetime) -> tuple[object, ...]:
    return (ThreeDsCode.used_at.is_(None), ThreeDsCode.expires_at > now)


async def unassigned_codes(
    session: AsyncSession, cipher: CardCipher, user_uuid: uuid.UUID, now: datetime
) -> list[ThreeDsRecord]:
    """The user's codes not yet used and not expired, newest first."""
    rows = await session.execute(
        select(ThreeDsCode, Card)
        .join(Card, Card.uuid == ThreeDsCode.card_uuid)
        .where(ThreeDsCode.user_uuid == user_uuid, *_unassigned(now))  # type: ignore[arg-type]
        .order_by(ThreeDsCode.created_at.desc(), ThreeDsCode.uuid.desc())
    )
    return [_record(code, card, cipher.decrypt(code.code_ciphertext)) for code, card in rows]


# Parameters: $1 card, $2 now.
_UNASSIGNED_OF_CARD = """
SELECT uuid, code_ciphertext FROM three_ds_codes
WHERE card_uuid = $1 AND used_at IS NULL AND expires_at > $2
FOR UPDATE"""
_USE = "UPDATE three_ds_codes SET used_at = $2, transaction_uuid = $3 WHERE uuid = $1"


async def matching_code(
    tx: Tx, cipher: CardCipher, card_uuid: uuid.UUID, presented: str, now: datetime
) -> uuid.UUID | None:
    """The card's unassigned code equal to `presented` (compared in constant time), locked."""
    for row in await tx.rows(_UNASSIGNED_OF_CARD, card_uuid, now):
        if hmac.compare_digest(cipher.decrypt(bytes(row["code_ciphertext"])), presented):
            return as_uuid(row["uuid"])
    return None


async def use_code(tx: Tx, code: uuid.UUID, transaction_uuid: uuid.UUID, now: datetime) -> None:
    """The code is used up by this (approved) transaction."""
    await tx.execute(_USE, code, now, transaction_uuid)
