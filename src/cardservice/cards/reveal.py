"""Revealing a card's details to its holder (docs/security.md#card-details-cvv2-and-issuer-keys):
number, expiry, CVV2.

One unit: the card is locked (the caller's own, else 404); at most `REVEALS_PER_HOUR`
reveals of it in the last hour, counted on the audit trail under that lock (429); the
step-up MFA code is used up (403 `step_up_failed`); a closed card is refused (422
`card_closed`); then the audit row and the `card.details_revealed` event (data: the card
record, never the number) are written beside the answer. Any refusal rolls the unit back,
so a refused reveal uses up no code. The CVV2 is computed here from the CVK, never stored.

The audit row of a reveal made with a token an operator key issued names that key (its
uuid, name and prefix): a help desk's reveal is told apart from the holder's own.

The number and CVV2 leave only in the returned `CardDetails`: they are never logged, put
in an error, an event, an audit row or a metric.
"""

from __future__ import annotations

import logging
import math
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from cardservice.audit import Actor, action_times_since, record_audit
from cardservice.auth import token_issuer, use_step_up_code
from cardservice.cards import repository
from cardservice.cards.changes import CardClosed
from cardservice.cards.repository import lock_own_card_secret
from cardservice.cards.schemas import CardDetails
from cardservice.db.sql import Tx
from cardservice.errors import CardNotFound, RateLimited, ServiceError
from cardservice.security import MissingEncryptionKey

log = logging.getLogger(__name__)

REVEALS_PER_HOUR = 10
REVEAL_WINDOW = timedelta(hours=1)
REVEAL_ACTION = "card.reveal"
REVEAL_EVENT = "card.details_revealed"


class StepUpFailed(ServiceError):
    status_code, code = 403, "step_up_failed"
    message = "The confirmation code is wrong, expired or already used; request a new one."


class KeysUnavailable(ServiceError):
    status_code, code = 503, "keys_unavailable"
    message = "Card details cannot be shown now: the service's card keys are not available."


class DetailsCipher(Protocol):
    """What a reveal needs of the key backend (`security.CardCipher` and its successors)."""

    def decrypt(self, ciphertext: bytes) -> str: ...

    def cvv2(self, pan: str, expiry_yymm: str) -> str: ...


@dataclass(frozen=True, slots=True)
class RevealRequest:
    user_uuid: uuid.UUID
    card_uuid: uuid.UUID
    mfa_code: str
    request_id: str | None
    now: datetime
    token_uuid: uuid.UUID | None  # the bearer token the holder (or a help desk) called with


def expiry_yymm(month: int, year: int) -> str:
    """The expiry as the CVV algorithm takes it: `YYMM`."""
    return f"{year % 100:02d}{month:02d}"


async def _refuse_over_limit(tx: Tx, card_uuid: uuid.UUID, now: datetime) -> None:
    since = now - REVEAL_WINDOW
    times = await action_times_since(tx, REVEAL_ACTION, "card", card_uuid, since)
    if len(times) >= REVEALS_PER_HOUR:
        # free again when the oldest reveal that keeps it full leaves the window
        frees_at = times[-REVEALS_PER_HOUR] + REVEAL_WINDOW
        raise RateLimited(math.ceil((frees_at - now).total_seconds()))


async def _chain(tx: Tx, token_uuid: uuid.UUID | None) -> dict[str, object] | None:
    """What the audit row adds to the holder: the token, and the operator key that issued
    it (a reveal through the program's help desk); nothing for the holder's own token."""
    if token_uuid is None:
        return None
    issuer = await token_issuer(tx, token_uuid)
    return None if issuer is None else {"token_uuid": str(token_uuid), "operator_key": issuer}


async def reveal_card(tx: Tx, cipher: DetailsCipher, request: RevealRequest) -> CardDetails:
    """The card's number, expiry, CVV2 and holder name, under every rule of
    docs/security.md#card-details-cvv2-and-issuer-keys."""
    row = await lock_own_card_secret(tx, request.user_uuid, request.card_uuid)
    if row is None:
        raise CardNotFound()
    await _refuse_over_limit(tx, request.card_uuid, request.now)
    if not await use_step_up_code(tx, request.user_uuid, request.mfa_code, request.now):
        raise StepUpFailed()
    if row["status"] == "closed":
        raise CardClosed("The card is closed; its details are no longer shown.")
    month, year = int(row["expiry_month"]), int(row["expiry_year"])
    try:
        pan = cipher.decrypt(bytes(row["pan_ciphertext"]))
        cvv2 = cipher.cvv2(pan, expiry_yymm(month, year))
    except MissingEncryptionKey as missing:  # the operator's to mend; the unit rolls back
        log.error("card details not revealed: %s", missing)
        raise KeysUnavailable() from None
    details = CardDetails(
        pan=pan, cvv2=cvv2, expiry_month=month, expiry_year=year, holder_name=row["holder_name"]
    )
    await record_audit(
        tx,
        Actor.user(request.user_uuid),
        REVEAL_ACTION,
        "card",
        request.card_uuid,
        request_id=request.request_id,
        details=await _chain(tx, request.token_uuid),
        at=request.now,
    )
    await repository.insert_card_event(
        tx, REVEAL_EVENT, request.user_uuid, request.card_uuid, request.now
    )
    return details
