"""Card verification of an 0100 (docs/network.md#the-network-interface-iso-8583,
docs/network.md#a-channel-that-can-be-trusted): the expiry of 14 and the CVV2 of 48.92, checked by
the card-testing guard's one check (`transactions.card_testing`), which also counts the failures;
for a wallet token's DPAN (docs/network.md#wallet-tokens), the token's expiry; a number of no
card, counted at its merchant and its BIN (`unknown_number`, the one place a BIN lock is
told to the program-wide endpoints: `card_testing.locked`). Field 52's PIN block and field
22's entry mode become the facts the engine reads (docs/cards.md#pin-in-iso-8583)."""

from __future__ import annotations

from datetime import datetime

from cardservice.cards import presented_pvv
from cardservice.db.sql import Tx
from cardservice.events import record_operator_event
from cardservice.network.codec import Message, sub_elements
from cardservice.network.fields import CVV2, ENTRY_MODES
from cardservice.network.repository import IssuedCard, WalletToken
from cardservice.security import CardCipher
from cardservice.transactions import card_testing
from cardservice.transactions.card_testing import BinCount, Merchant
from cardservice.transactions.card_testing import verification_failure as guarded_check


def verification_failure(cipher: CardCipher, message: Message, card: IssuedCard) -> str | None:
    """The decline slug when 14 is not the card's expiry (`invalid_expiry`) or 48.92, when
    present, is not its CVV2 (`invalid_cvv2`); None when the card is verified."""
    elements = sub_elements(message.fields.get(48, "")) or {}
    return guarded_check(
        cipher, message.fields[2], card.expiry_yymm, message.fields[14], elements.get(CVV2)
    )


def token_verification_failure(message: Message, token: WalletToken) -> str | None:
    """For a wallet token's DPAN (docs/network.md#wallet-tokens): `invalid_expiry` when 14 is not
    the token's expiry (no CVV2 is expected: a wallet has none)."""
    return "invalid_expiry" if message.fields[14] != token.expiry_yymm else None


async def unknown_number(tx: Tx, pan: str, merchant: Merchant, now: datetime) -> BinCount:
    """A number of no card, in the caller's unit: counted at its merchant and at its BIN
    (`card_testing.note_merchant_failure`, `note_unknown_number`). When this number locks the
    BIN, the unit also writes the operator's `card_testing.locked` event (the BIN, the count,
    when and until when; never a number: docs/events.md#the-operators-own-events), so the
    lock and its event commit together, once."""
    await card_testing.note_merchant_failure(tx, merchant, now)
    counted = await card_testing.note_unknown_number(tx, pan, now)
    lock = counted.began
    if lock is not None:
        data = {"bin": lock.bin, "unknown_numbers": lock.unknown_numbers, "locked_at": now,
                "until": lock.until}  # fmt: skip
        await record_operator_event(tx, "card_testing.locked", "card_testing_lock", None, data, now)
    return counted


def entry_mode(message: Message) -> str | None:
    """How the terminal read the card, by field 22's first two digits (`ENTRY_MODES`); None
    when 22 is not sent or names no mode of ours (a card not present)."""
    value = message.fields.get(22)
    return None if value is None else ENTRY_MODES.get(value[:2])


def pin_presented(cipher: CardCipher, message: Message, card: IssuedCard) -> str | None:
    """Field 52's PIN as its PVV on the card (`cards.presented_pvv`: `""` when the block does
    not decode), for the engine to compare under the card's lock; None when 52 is not sent. A
    DPAN's block is formatted with the DPAN, its PIN is the card's."""
    block = message.fields.get(52)
    if block is None:
        return None
    pan = message.fields[2]
    card_pan = pan if card.token_card_pan is None else cipher.decrypt(card.token_card_pan)
    return presented_pvv(cipher, block, pan, card_pan)
