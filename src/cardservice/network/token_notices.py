"""The token service's notices (docs/network.md#wallet-tokens): 0620 → 0630.

* **Token created**: 2 (the card), 48.74 (the DPAN), .75 (its expiry YYMM), .76 (the token
  reference), .71 (wallet), .72 (device) → `00`, the token recorded `active` after an
  approve decision, `requires_activation` after a step-up; `25` when no decision for that
  reference and card was taken, `05` when it was declined. A DPAN that is not 13–19 digits
  with a valid Luhn digit, or that is a card's number or another token's, → `30` and
  nothing is recorded.
* **Activation**: 48.76 and 48.77 (the code the holder typed) → `00` and the token becomes
  `active` when 48.77 is the live code made for it (used up), else `63`; `25` for a
  reference with no token.

Each notice is answered once per key (a repeat gets the first answer).
"""

from __future__ import annotations

from cardservice.cards.numbers import luhn_valid
from cardservice.db.sql import Tx
from cardservice.models.base import utcnow
from cardservice.network import repository
from cardservice.network.codec import Message, sub_elements
from cardservice.network.fields import (
    ACTIVATION_CODE,
    DEVICE_NAME,
    TOKEN_EXPIRY,
    TOKEN_PAN,
    TOKEN_REFERENCE,
    WALLET,
)
from cardservice.network.host import Answer, Host, Malformed, Refused, key_of, once, require
from cardservice.network.repository import Key
from cardservice.network.responses import (
    APPROVED,
    DO_NOT_HONOR,
    FORMAT_ERROR,
    INVALID_CODE,
    ORIGINAL_UNKNOWN,
    UNKNOWN_CARD,
)
from cardservice.tokens import (
    WALLET_CODES,
    DeclinedReference,
    DpanRefused,
    NotDecided,
    TokenNotice,
    activate_token,
    create_token,
)


def _well_formed_dpan(dpan: str) -> bool:
    return 13 <= len(dpan) <= 19 and luhn_valid(dpan)


def _well_formed_expiry(yymm: str) -> bool:
    return len(yymm) == 4 and yymm.isdigit() and 1 <= int(yymm[2:]) <= 12


async def _created(host: Host, message: Message, key: Key, elements: dict[str, str]) -> Answer:
    require(message, 2)
    for tag in (TOKEN_PAN, TOKEN_EXPIRY, TOKEN_REFERENCE, WALLET, DEVICE_NAME):
        if not elements.get(tag, "").strip():
            raise Malformed(f"48.{tag} missing")
    dpan, reference = elements[TOKEN_PAN], elements[TOKEN_REFERENCE].strip()
    device = elements[DEVICE_NAME].strip()
    if not _well_formed_dpan(dpan) or not _well_formed_expiry(elements[TOKEN_EXPIRY]):
        raise Malformed("48.74 is 13-19 digits with a Luhn check digit; 48.75 is YYMM")
    if elements[WALLET] not in WALLET_CODES or len(device) > 32 or len(reference) > 32:
        raise Malformed("48.71 is a known wallet; 48.72 and 48.76 at most 32 characters")
    card = await repository.issued_card(host.db.reader, host.cipher.fingerprint(message.fields[2]))
    if card is None or card.token is not None:
        return {"39": UNKNOWN_CARD}  # nothing recorded
    notice = TokenNotice(card.card_uuid, reference, dpan, elements[TOKEN_EXPIRY],
                         WALLET_CODES[elements[WALLET]], device)  # fmt: skip

    async def record(tx: Tx) -> Answer:
        try:
            await create_token(tx, host.cipher, notice, utcnow())
        except NotDecided:
            raise Refused(ORIGINAL_UNKNOWN) from None
        except DeclinedReference:
            raise Refused(DO_NOT_HONOR) from None
        answer = {"39": APPROVED}
        await repository.remember(tx, key, None, APPROVED, answer, utcnow())
        return answer

    try:
        return await once(host, key, record)
    except DpanRefused:
        return {"39": FORMAT_ERROR}  # nothing recorded, the key not even


async def _activated(host: Host, key: Key, elements: dict[str, str]) -> Answer:
    reference, code = elements[TOKEN_REFERENCE].strip(), elements[ACTIVATION_CODE].strip()

    async def activate(tx: Tx) -> Answer:
        try:
            active = await activate_token(tx, host.cipher, reference, code, utcnow())
        except NotDecided:
            raise Refused(ORIGINAL_UNKNOWN) from None
        answer = {"39": APPROVED if active else INVALID_CODE}
        await repository.remember(tx, key, None, answer["39"], answer, utcnow())
        return answer

    return await once(host, key, activate)


async def token_notice(host: Host, message: Message) -> Answer:
    """0620 / 0621 → 0630: a token created, or its activation code."""
    key = key_of(message)
    elements = sub_elements(message.fields.get(48, ""))
    if elements is None or not elements.get(TOKEN_REFERENCE, "").strip():
        raise Malformed("field 48 with 48.76")
    if ACTIVATION_CODE in elements:
        return await _activated(host, key, elements)
    return await _created(host, message, key, elements)
