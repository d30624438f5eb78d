"""The PIN of a physical card (docs/cards.md#the-pin): set by its holder, never stored.

Setting it, in one unit: the holder's own card, locked (else 404); physical (422
`card_not_physical`) and not closed (422 `card_closed`); the step-up MFA code used up (403
`step_up_failed`); the envelope — base64 of RSA-OAEP (SHA-256) over `{"pin", "nonce"}` under
the PIN key `key_id` (`GET /card/pin-key`) — opened by the key backend (422
`invalid_pin_block`); a weak PIN refused (422 `weak_pin`); the nonce used once (its SHA-256
kept; 422 `nonce_reused`); then only the Visa PVV of the PIN is written, the PIN unblocked,
and the event `card.pin.updated` and an audit row added. Any refusal rolls the unit back.

`presented_pvv` reads a PIN block from the network as its PIN's PVV, which the authorization
compares with the card's under the card's lock (docs/cards.md#pin-in-iso-8583); `pin_matches`
is that comparison alone.

Neither the PIN, the envelope's content nor a PIN block is ever logged, put in an error, an
event, an audit row or a metric: errors say only which rule refused.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import itertools
import logging
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from cardservice.audit import Actor, record_audit
from cardservice.auth import use_step_up_code
from cardservice.cards import repository
from cardservice.cards.changes import CardClosed
from cardservice.cards.physical import CardNotPhysical
from cardservice.cards.records import card_record
from cardservice.cards.repository import lock_own_card_secret
from cardservice.cards.reveal import KeysUnavailable, StepUpFailed
from cardservice.db.sql import Tx
from cardservice.errors import CardNotFound, RuleViolation
from cardservice.security import MissingEncryptionKey
from cardservice.security.pin import InvalidPinBlock, envelope_contents, pin_of_block

log = logging.getLogger(__name__)

PIN_EVENT = "card.pin.updated"
PIN_ACTION = "card.pin_set"
PIN_LENGTHS = range(4, 7)
PIN_BLOCK_HEX = 16


class WeakPin(RuleViolation):
    code = "weak_pin"
    message = (
        "A PIN is 4 to 6 digits, not one digit repeated and not an ascending or descending"
        " run; choose another."
    )


class InvalidPinEnvelope(RuleViolation):
    code = "invalid_pin_block"
    message = "The encrypted PIN does not decrypt under that key; encrypt it again."


class NonceReused(RuleViolation):
    code, message = "nonce_reused", "This nonce was used already; encrypt the PIN with a new one."


class PinCipher(Protocol):
    """What PINs need of the key backend (`security.CardCipher` and its successors)."""

    def decrypt(self, ciphertext: bytes) -> str: ...

    def open_pin_envelope(self, key_id: str, envelope: bytes) -> bytes: ...

    def pin_pvv(self, pan: str, pin: str) -> str: ...

    def clear_pin_block(self, block: bytes) -> bytes: ...


@dataclass(frozen=True, slots=True)
class SetPin:
    user_uuid: uuid.UUID
    card_uuid: uuid.UUID
    key_id: str
    encrypted_pin: str
    mfa_code: str
    request_id: str | None
    now: datetime


def is_weak(pin: str) -> bool:
    """Not 4–6 ASCII digits, one digit repeated, or a run up or down (`1234`, `9876`)."""
    if not (pin.isascii() and pin.isdigit() and len(pin) in PIN_LENGTHS):
        return True
    steps = {(int(b) - int(a)) % 10 for a, b in itertools.pairwise(pin)}
    return steps in ({0}, {1}, {9})


def _open(cipher: PinCipher, key_id: str, encrypted_pin: str) -> tuple[str, str]:
    """The envelope's `(pin, nonce)`; `InvalidPinEnvelope` when it does not open."""
    try:
        envelope = base64.b64decode(encrypted_pin, validate=True)
        return envelope_contents(cipher.open_pin_envelope(key_id, envelope))
    except (binascii.Error, InvalidPinBlock):
        raise InvalidPinEnvelope() from None


async def _use_nonce(tx: Tx, nonce: str, now: datetime) -> None:
    digest = hashlib.sha256(nonce.encode()).hexdigest()
    if not await repository.spend_pin_nonce(tx, digest, now):
        raise NonceReused()


async def set_pin(tx: Tx, cipher: PinCipher, request: SetPin) -> dict[str, Any]:
    """Keep the PVV of the holder's new PIN, under every rule above; the card's record."""
    row = await lock_own_card_secret(tx, request.user_uuid, request.card_uuid)
    if row is None:
        raise CardNotFound()
    if row["form"] != "physical":
        raise CardNotPhysical()
    if row["status"] == "closed":
        raise CardClosed()
    if not await use_step_up_code(tx, request.user_uuid, request.mfa_code, request.now):
        raise StepUpFailed()
    try:
        pin, nonce = _open(cipher, request.key_id, request.encrypted_pin)
        if is_weak(pin):
            raise WeakPin()
        await _use_nonce(tx, nonce, request.now)
        pvv = cipher.pin_pvv(cipher.decrypt(bytes(row["pan_ciphertext"])), pin)
    except MissingEncryptionKey as missing:  # the operator's to mend; the unit rolls back
        log.error("PIN not set: %s", missing)
        raise KeysUnavailable() from None
    columns = {"pin_pvv": pvv, "pin_blocked": False, "pin_failures": 0}
    await repository.update_card(tx, request.card_uuid, columns, request.now)
    await record_audit(
        tx,
        Actor.user(request.user_uuid),
        PIN_ACTION,
        "card",
        request.card_uuid,
        request_id=request.request_id,
        at=request.now,
    )
    await repository.insert_card_event(
        tx, PIN_EVENT, request.user_uuid, request.card_uuid, request.now
    )
    changed = await repository.own_card(tx, request.user_uuid, request.card_uuid)
    assert changed is not None
    return card_record(changed)


def presented_pvv(cipher: PinCipher, pin_block_hex: str, block_pan: str, card_pan: str) -> str:
    """The Visa PVV on `card_pan` of the PIN in a field-52 PIN block (ISO 9564 format 0 under
    the zone PIN key, 16 hex digits, formatted with `block_pan`: the number the terminal read,
    the card's or its wallet token's), decrypted by the key backend; `""` (no PVV matches it)
    for a block that does not decode or a PIN that is not 4–6 digits. A block that is not 16
    hex digits raises `ValueError` (the network answers `30`). The PIN itself leaves this
    function only as its PVV."""
    if len(pin_block_hex) != PIN_BLOCK_HEX or not all(
        c in "0123456789abcdefABCDEF" for c in pin_block_hex
    ):
        raise ValueError("field 52 must be 16 hex digits")
    try:
        pin = pin_of_block(cipher.clear_pin_block(bytes.fromhex(pin_block_hex)), block_pan)
    except InvalidPinBlock:
        return ""
    if len(pin) not in PIN_LENGTHS:  # a PIN set here is 4–6 digits; the PVV reads 4 of them
        return ""
    return cipher.pin_pvv(card_pan, pin)


def pin_matches(cipher: PinCipher, pin_block_hex: str, pan: str, pvv: str) -> bool:
    """Whether a field-52 PIN block of the card `pan` carries the PIN whose PVV is `pvv`
    (`presented_pvv`, compared in constant time)."""
    presented = presented_pvv(cipher, pin_block_hex, pan, pan)
    return bool(presented) and hmac.compare_digest(presented, pvv)
