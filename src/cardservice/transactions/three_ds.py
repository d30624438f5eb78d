"""3DS one-time codes: issued for a card, listed while unassigned, used up by an authorization."""

from __future__ import annotations

import hmac
import secrets
import uuid
from datetime import datetime, timedelta
from typing import Any

from cardservice.db.sql import Reader, Tx, as_uuid
from cardservice.errors import CardNotFound
from cardservice.models.base import utcnow
from cardservice.security import CardCipher
from cardservice.transactions import repository
from cardservice.transactions.records import three_ds_code_record


async def issue_code(
    tx: Tx,
    cipher: CardCipher,
    user_uuid: uuid.UUID,
    card_uuid: uuid.UUID,
    merchant_name: str,
    amount: int,
    currency: str,
    ttl: timedelta,
    now: datetime | None = None,
    code: str | None = None,
) -> dict[str, Any]:
    """A new 6-digit code for one of the user's cards (`code` when the issuer's ACS sent it,
    else a random one), kept encrypted at rest; its record."""
    card = await repository.code_card(tx, card_uuid, user_uuid)
    if card is None:
        raise CardNotFound()
    now = now or utcnow()
    code = code or f"{secrets.randbelow(1_000_000):06d}"
    row: dict[str, Any] = {
        "uuid": uuid.uuid4(),
        "card_uuid": card_uuid,
        "merchant_name": merchant_name,
        "amount": amount,
        "currency": currency,
        "created_at": now,
        "expires_at": now + ttl,
        "bin": card["bin"],
        "last4": card["last4"],
    }
    await repository.insert_code(
        tx,
        row["uuid"],
        user_uuid,
        card_uuid,
        cipher.encrypt(code),
        merchant_name,
        amount,
        currency,
        now,
        row["expires_at"],
    )
    return three_ds_code_record(row, code)


async def unassigned_codes(
    reader: Reader, cipher: CardCipher, user_uuid: uuid.UUID, now: datetime
) -> list[dict[str, Any]]:
    """The user's codes not yet used and not expired, newest first."""
    rows = await repository.unassigned_codes(reader, user_uuid, now)
    return [
        three_ds_code_record(row, cipher.decrypt(bytes(row["code_ciphertext"]))) for row in rows
    ]


async def matching_code(
    tx: Tx, cipher: CardCipher, card_uuid: uuid.UUID, presented: str, now: datetime
) -> uuid.UUID | None:
    """The card's unassigned code equal to `presented` (compared in constant time), locked."""
    for row in await repository.unassigned_codes_of_card(tx, card_uuid, now):
        if hmac.compare_digest(cipher.decrypt(bytes(row["code_ciphertext"])), presented):
            return as_uuid(row["uuid"])
    return None


async def use_code(
    tx: Tx, code: uuid.UUID, transaction_uuid: uuid.UUID | None, now: datetime
) -> None:
    """The code is used up by this (approved) transaction, or (None) by a wallet token's
    activation (docs/network.md#wallet-tokens) or by the deletion of the token its 3rd wrong code
    made."""
    await repository.use_code(tx, code, now, transaction_uuid)
