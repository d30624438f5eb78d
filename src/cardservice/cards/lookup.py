"""Finding a card by its number (the ISO 8583 host, the ACS endpoint): through the keyed
fingerprint index (`cards.pan_fingerprint`), never by decrypting rows."""

from __future__ import annotations

from typing import Protocol

from cardservice.cards.repository import card_by_fingerprint
from cardservice.db.sql import Reader, Row, Tx


class PanFingerprints(Protocol):
    """Anything with `fingerprint(pan) -> str`: `security.CardCipher`, or its successors."""

    def fingerprint(self, plaintext: str) -> str: ...


async def card_by_pan(
    reader: Reader | Tx, cipher: PanFingerprints, pan: str, *, for_update: bool = False
) -> Row | None:
    """The card with this number (`owner_uuid` first, then the columns of `card_columns`,
    which `card_record` reads), or None; locked when `for_update` (in a write unit)."""
    if not pan.isdigit():
        return None
    return await card_by_fingerprint(reader, cipher.fingerprint(pan), for_update=for_update)
