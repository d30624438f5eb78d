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
* `holder_reset()` — the columns a holder's status change sets (`PATCH /card/{uuid}`).

Verification declines are free (`FREE_DECLINES`: no fee, nothing held), and so is the
`suspected_fraud` answer: a stranger who knows only a card's number cannot cost its holder
anything. The counts are exact under concurrency: a card's failures are written under the
card's row lock, a merchant's under its row's (taken after the card's, last in the lock
order), so two processes never both count the same 5th failure or miss it.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import orjson

from cardservice.db.sql import Row, Tx, as_datetime
from cardservice.security import CardCipher
from cardservice.transactions.card_testing import repository

INVALID_EXPIRY = "invalid_expiry"
INVALID_CVV2 = "invalid_cvv2"
SUSPECTED_FRAUD = "suspected_fraud"
VERIFICATION_FAILURES = frozenset({INVALID_EXPIRY, INVALID_CVV2})
FREE_DECLINES = VERIFICATION_FAILURES | {SUSPECTED_FRAUD}

CARD_FAILURES = 5  # the 5th failure …
CARD_WINDOW = timedelta(hours=24)  # … within 24 h freezes the card
MERCHANT_FAILURES = 10  # 10 failures at one merchant …
MERCHANT_WINDOW = timedelta(minutes=10)  # … within 10 minutes …
MERCHANT_BLOCK = timedelta(minutes=10)  # … block it for 10 minutes


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


def card_refusal(card: Row) -> str | None:
    """`suspected_fraud` for a card the guard froze: every authorization of it answers that,
    whatever details it presents, until its holder sets it active."""
    if card["status"] == "frozen" and card["frozen_reason"] == SUSPECTED_FRAUD:
        return SUSPECTED_FRAUD
    return None


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
    freeze = len(times) == CARD_FAILURES and now - times[0] < CARD_WINDOW
    if freeze and card["status"] == "active":
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
    until = as_datetime(blocked_until)
    return until is not None and now < until


async def note_merchant_failure(tx: Tx, merchant: Merchant, now: datetime) -> bool:
    """A verification failure at the merchant (an unknown number, a wrong expiry or CVV2):
    counted under its row's lock; the 10th within 10 minutes blocks it for the next 10.
    True when this failure blocked it."""
    row = await repository.lock_merchant(tx, merchant.acquirer_id, merchant.merchant_id)
    times = [*_times(row["failures"]), now][-MERCHANT_FAILURES:]
    block = len(times) == MERCHANT_FAILURES and now - times[0] < MERCHANT_WINDOW
    until = now + MERCHANT_BLOCK if block else as_datetime(row["blocked_until"])
    await repository.set_merchant(
        tx, merchant.acquirer_id, merchant.merchant_id, _stored(times), until
    )
    return block


async def checked_card(
    tx: Tx, card_uuid: Any, failure: str | None, merchant: Merchant | None, now: datetime
) -> str | None:
    """The guard for a channel that verifies a card's details outside an authorization (a
    wallet's token request), in its unit, after the locks that come before a card's (the
    account's): locks the card; `suspected_fraud` for a card the guard froze (nothing
    counted); else `failure` (the slug of `verification_failure`) is counted at the card and
    the merchant and returned, or, None, the card's count is cleared. None: verified."""
    card = await repository.lock_card(tx, card_uuid)
    if card is None:
        return None
    refusal = card_refusal(card)
    if refusal is not None:
        return refusal
    if failure is None:
        await note_card_passed(tx, card_uuid, card)
        return None
    await note_card_failure(tx, card_uuid, card, now)
    if merchant is not None:
        await note_merchant_failure(tx, merchant, now)
    return failure
