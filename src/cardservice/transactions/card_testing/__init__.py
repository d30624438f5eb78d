"""The card-testing guard (docs/network.md#card-testing): the one place that
counts a card's verification failures, freezes a card being guessed at, and blocks a
merchant that many cards fail at. Every channel that checks a card's details calls it:

* `verification_failure(cipher, pan, expiry_yymm, presented_expiry, presented_cvv2)` — the
  check itself: the decline slug (`invalid_expiry`, `invalid_cvv2`) or None;
* the engine, in the unit that records an authorization under the card's lock, calls
  `card_refusal` (a card the guard froze answers `suspected_fraud` before anything else),
  `note_card_failure` (a verification decline: counted, the 5th within 24 h freezes the card)
  and `note_card_passed` (an approval: the count starts again);
* a channel that verifies a card outside an authorization (a wallet's token request) calls
  `checked_card(tx, card_uuid, failure, merchant, now)` in its unit: the same three steps,
  the card locked by it;
* `merchant_blocked` (its row's `blocked_until` read with the card, see
  `network.repository.locked_card_and_key`) / `note_merchant_failure` — the merchant, a pair
  (acquirer id, merchant id): 10 failures within 10 minutes, over any cards, block it for 10
  minutes;
* `note_unknown_number` / `bin_locked` / `locks` — a BIN the service issues from: more than
  20 unknown numbers of it within 10 minutes, from any merchants, lock it for 30 minutes
  (an 0100 with one of its numbers and no CVV2 then answers `N7`; docs/network.md, "BIN
  lock"); `locks` is what the operator reads (`GET /operator/card-testing`);
* `pin_refusal` / `note_pin` — the PIN of a PIN block (as its PVV, computed by the channel)
  against the card's, under the card's lock: `invalid_pin`, the 3rd wrong in a row
  `pin_tries_exceeded` and the PIN blocked (a `card.updated` event) until its holder sets a
  new one; a right one resets the count, never a block (docs/cards.md#pin-in-iso-8583);
* `holder_reset()` — the columns a holder's status change sets (`PATCH /card/{uuid}`).

Verification declines are free (`FREE_DECLINES`: no fee, nothing held), and so is the
`suspected_fraud` answer: a stranger who knows only a card's number cannot cost its holder
anything. Where anyone who knows a card's number can present it (ISO 8583), only
`CHARGED_DECLINES` cost a fee: the card's state is told before its details are compared
(`state_refusal`), and every other decline is free. The counts are exact under concurrency:
a card's failures are written under the card's row lock, a merchant's under its row's, a
BIN's under its row's (taken after the card's, merchant before BIN, last in the lock order),
so two processes never both count the same 5th failure or miss it.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import orjson

from cardservice.db.sql import Reader, Row, Tx, as_datetime
from cardservice.observability import metrics
from cardservice.security import CardCipher
from cardservice.transactions.card_testing import repository

INVALID_EXPIRY = "invalid_expiry"
INVALID_CVV2 = "invalid_cvv2"
SUSPECTED_FRAUD = "suspected_fraud"
VERIFICATION_FAILURES = frozenset({INVALID_EXPIRY, INVALID_CVV2})
INVALID_PIN = "invalid_pin"
PIN_TRIES_EXCEEDED = "pin_tries_exceeded"
PIN_REFUSALS = frozenset({INVALID_PIN, PIN_TRIES_EXCEEDED})
FREE_DECLINES = VERIFICATION_FAILURES | PIN_REFUSALS | {SUSPECTED_FRAUD, "virtual_card_present"}
# A card presented by its number and details pays the card_decline fee only when they were
# verified on an active card and the rules then declined (51, 61, 57, 05).
CHARGED_DECLINES = frozenset(
    {"insufficient_funds", "limit_exceeded", "merchant_blocked", "do_not_honor"}
)

PIN_TRIES = 3  # the 3rd wrong PIN in a row blocks the PIN
CARD_FAILURES = 5  # the 5th failure …
CARD_WINDOW = timedelta(hours=24)  # … within 24 h freezes the card
MERCHANT_FAILURES = 10  # 10 failures at one merchant …
MERCHANT_WINDOW = timedelta(minutes=10)  # … within 10 minutes …
MERCHANT_BLOCK = timedelta(minutes=10)  # … block it for 10 minutes
BIN_UNKNOWN_NUMBERS = 21  # more than 20 unknown numbers of one BIN …
BIN_WINDOW = timedelta(minutes=10)  # … within 10 minutes …
BIN_LOCK = timedelta(minutes=30)  # … lock it for 30 minutes
BIN_DIGITS = 6

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Merchant:
    """Where a card is presented: the acquirer (ISO 8583 DE 32, 11 digits, zero-filled) and
    the merchant id it gives (DE 42, spaces stripped; empty when not sent)."""

    acquirer_id: str
    merchant_id: str


def verification_failure(
    cipher: CardCipher,
    pan: str,
    expiry_yymm: str,
    presented_expiry: str,
    presented_cvv2: str | None,
) -> str | None:
    """`invalid_expiry` when the presented expiry (YYMM) is not the card's, `invalid_cvv2`
    when a presented CVV2 is not the card's (computed from the issuer keys, never stored,
    compared in constant time); None when the details are the card's."""
    if presented_expiry != expiry_yymm:
        return INVALID_EXPIRY
    if presented_cvv2 is None:
        return None
    expected = cipher.cvv2(pan, expiry_yymm)
    return None if hmac.compare_digest(presented_cvv2, expected) else INVALID_CVV2


def state_refusal(card: Row) -> str | None:
    """A card that is not active answers its state before its details are compared:
    `suspected_fraud` (frozen by the guard), `card_frozen`, `card_closed`; None: active."""
    if card["status"] == "active":
        return None
    return card_refusal(card) or f"card_{card['status']}"


def card_refusal(card: Row) -> str | None:
    """`suspected_fraud` for a card the guard froze: every authorization of it answers that,
    whatever details it presents, until its holder sets it active."""
    if card["status"] == "frozen" and card["frozen_reason"] == SUSPECTED_FRAUD:
        return SUSPECTED_FRAUD
    return None


def _pin_right(card: Row, presented_pvv: str) -> bool:
    return hmac.compare_digest(presented_pvv, str(card["pin_pvv"]))


def pin_refusal(card: Row, presented_pvv: str | None) -> str | None:
    """The PIN of a PIN block (its PVV, `""` for a block that does not decode; None: no PIN
    presented) against the locked card's: `pin_tries_exceeded` for a blocked PIN (whatever
    was entered) and for the `PIN_TRIES`th wrong PIN in a row, `invalid_pin` for a wrong one
    before it and for any PIN on a card with none set; None when it is right."""
    if presented_pvv is None:
        return None
    if card["pin_blocked"]:
        return PIN_TRIES_EXCEEDED
    if card["pin_pvv"] is None:
        return INVALID_PIN
    if _pin_right(card, presented_pvv):
        return None
    return PIN_TRIES_EXCEEDED if int(card["pin_failures"]) + 1 >= PIN_TRIES else INVALID_PIN


async def note_pin(
    tx: Tx, card_uuid: Any, card: Row, presented_pvv: str, reason: str | None, now: datetime
) -> None:
    """In the unit that recorded the answer, the card still locked: a wrong PIN the answer
    told (`reason` a PIN refusal) is counted, the `PIN_TRIES`th blocks the PIN; a right one
    resets the count. A blocked PIN, a card with no PIN, and a PIN the answer did not reach
    (an earlier rule declined) change nothing; a right PIN never unblocks."""
    if card["pin_blocked"] or card["pin_pvv"] is None:
        return
    failures = int(card["pin_failures"])
    if _pin_right(card, presented_pvv):
        if failures:
            await repository.set_pin_failures(tx, card_uuid, 0)
    elif reason in PIN_REFUSALS:
        if failures + 1 >= PIN_TRIES:
            await repository.block_pin(tx, card_uuid, failures + 1, now)
            log.warning("card %s: PIN blocked after %d wrong PINs", card_uuid, failures + 1)
        else:
            await repository.set_pin_failures(tx, card_uuid, failures + 1)


def _window_full(times: list[datetime], count: int, window: timedelta) -> bool:
    """Whether the last `count` times (the newest last) fell within `window` of each other."""
    return len(times) == count and times[-1] - times[0] < window


def _times(stored: Any) -> list[datetime]:
    if stored is None:
        return []
    return [moment for text in orjson.loads(stored) if (moment := as_datetime(text))]


def _stored(times: list[datetime]) -> str:
    return orjson.dumps([moment.isoformat() for moment in times]).decode()


async def note_card_failure(tx: Tx, card_uuid: Any, card: Row, now: datetime) -> bool:
    """A verification failure of the card (locked, read with `GUARD_COLUMNS`): counted; the
    5th within 24 h since its last approval or reset freezes it (`frozen_reason:
    suspected_fraud`, which its `card.updated` event shows). True when it froze the card."""
    times = [*_times(card["verification_failures"]), now][-CARD_FAILURES:]
    freeze = _window_full(times, CARD_FAILURES, CARD_WINDOW)
    if freeze and card["status"] in ("active", "inactive"):  # inactive: wrong activation digits
        await repository.freeze_card(tx, card_uuid, _stored(times), SUSPECTED_FRAUD, now)
        return True
    await repository.set_card_failures(tx, card_uuid, _stored(times))
    return False


async def note_card_passed(tx: Tx, card_uuid: Any, card: Row) -> None:
    """An approval of the card: its verification failures are forgotten."""
    if card["verification_failures"] is not None:
        await repository.set_card_failures(tx, card_uuid, None)


def holder_reset() -> dict[str, Any]:
    """What a holder's own status change clears: the guard's reason and count."""
    return {"frozen_reason": None, "verification_failures": None}


def merchant_blocked(blocked_until: Any, now: datetime) -> bool:
    """Whether a merchant's `blocked_until` (its row's column, as read) is still ahead."""
    return _ahead(blocked_until, now)


def bin_locked(locked_until: Any, now: datetime) -> bool:
    """Whether a BIN's `locked_until` (its row's column, as read) is still ahead."""
    return _ahead(locked_until, now)


def _ahead(until: Any, now: datetime) -> bool:
    moment = as_datetime(until)
    return moment is not None and now < moment


async def note_merchant_failure(tx: Tx, merchant: Merchant, now: datetime) -> bool:
    """A verification failure at the merchant (an unknown number, a wrong expiry or CVV2):
    counted under its row's lock; the 10th within 10 minutes blocks it for the next 10.
    True when this failure blocked it."""
    row = await repository.lock_merchant(tx, merchant.acquirer_id, merchant.merchant_id)
    times = [*_times(row["failures"]), now][-MERCHANT_FAILURES:]
    block = _window_full(times, MERCHANT_FAILURES, MERCHANT_WINDOW)
    until = now + MERCHANT_BLOCK if block else as_datetime(row["blocked_until"])
    await repository.set_merchant(
        tx, merchant.acquirer_id, merchant.merchant_id, _stored(times), until
    )
    return block


def bin_of(pan: str) -> str:
    """The BIN the guard counts a number under: its first 6 digits."""
    return pan[:BIN_DIGITS]


@dataclass(frozen=True, slots=True)
class BinLock:
    """A BIN locked against enumeration: its unknown numbers since the window that locked it
    began, and the end of the lock."""

    bin: str
    unknown_numbers: int
    until: datetime


@dataclass(frozen=True, slots=True)
class BinCount:
    """An unknown number counted at its BIN: whether the BIN was locked already (read under
    its row's lock: exact whatever runs beside it) and the lock this number began, if any."""

    locked: bool
    began: BinLock | None


async def note_unknown_number(tx: Tx, pan: str, now: datetime) -> BinCount:
    """An unknown number, counted under its BIN's row lock when the service issues from that
    BIN (else nothing: no card of ours can be found by trying it). The 21st within 10
    minutes locks the BIN for 30 minutes (`announce` the lock once the unit committed);
    while locked, each one is counted on the lock."""
    row = await repository.lock_bin(tx, bin_of(pan))
    if row is None:
        return BinCount(False, None)
    times = [*_times(row["unknown"]), now][-BIN_UNKNOWN_NUMBERS:]
    until, seen = as_datetime(row["locked_until"]), row["unknown_numbers"] + 1
    locked, began = bin_locked(until, now), None
    if not locked:
        seen = len(times)
        if _window_full(times, BIN_UNKNOWN_NUMBERS, BIN_WINDOW):
            began = BinLock(bin_of(pan), seen, now + BIN_LOCK)
            until = began.until
    await repository.set_bin(tx, bin_of(pan), _stored(times), until, seen)
    return BinCount(locked, began)


def announce(lock: BinLock) -> None:
    """A BIN lock, once committed: one warning line (the BIN and the count, never a number)
    and the lock counter of /metrics."""
    log.warning(
        "card testing: BIN %s locked until %s, %d unknown numbers within 10 minutes",
        lock.bin, lock.until.isoformat(), lock.unknown_numbers,
    )  # fmt: skip
    metrics.count_bin_lock()


@dataclass(frozen=True, slots=True)
class Locks:
    """What the guard holds now: the merchants blocked and the BINs locked."""

    merchants_blocked: Sequence[Row]
    bins_locked: Sequence[Row]


async def locks(reader: Reader, now: datetime) -> Locks:
    """The merchants whose block and the BINs whose lock is still ahead of `now`."""
    return Locks(
        await repository.merchants_blocked(reader, now), await repository.bins_locked(reader, now)
    )


async def checked_card(
    tx: Tx, card_uuid: Any, failure: str | None, merchant: Merchant | None, now: datetime
) -> str | None:
    """The guard for a channel that verifies a card's details outside an authorization (a
    wallet's token request), in its unit, after the locks that come before a card's (the
    account's): locks the card; `suspected_fraud` for a card the guard froze (nothing
    counted), or the state of a card that is not active (`state_refusal`: its details not
    compared, nothing counted); else `failure` (the slug of `verification_failure`) is
    counted at the card and the merchant and returned, or, None, the card's count is
    cleared. None: verified."""
    card = await repository.lock_card(tx, card_uuid)
    if card is None:
        return None
    refusal = state_refusal(card)
    if refusal is not None:
        return refusal
    if failure is None:
        await note_card_passed(tx, card_uuid, card)
        return None
    await note_card_failure(tx, card_uuid, card, now)
    if merchant is not None:
        await note_merchant_failure(tx, merchant, now)
    return failure
