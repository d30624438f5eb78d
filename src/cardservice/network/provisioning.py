"""A wallet's provisioning request (docs/network.md#wallet-tokens): an 0100 with processing code
900000, amount 0, fields 2 and 14 of the card, 48.92 when the wallet sent the CVV2, and 48.70 (token
requestor), .71 (wallet), .72 (device), .73 (risk score), .76 (token reference).

Card verification is an authorization's (docs/network.md#the-network-interface-iso-8583: `14`
unknown card, `54` wrong expiry, `N7` wrong CVV2, nothing else done), counted by the card-testing
guard of docs/network.md#card-testing as an authorization's failures are
(`transactions.card_testing`: the card's count under its lock, the merchant's — the token service's
32 and 42 — after it, an unknown number's BIN after that); a card that is not active answers its
state before its details are compared (`59` frozen by the guard, `62` frozen, `46` closed; nothing
counted), and a number of a BIN the guard locked answers `N7` without 48.92 (docs/network.md, "BIN
lock"); then the token rules decide (`tokens.service`), the user's decision endpoint is asked
with no unit open (it may only be stricter), and the decision is written with the message's
key in one unit: `00` approve, `85` step-up (the holder's activation code made with it),
`05` decline. A missing or malformed wallet sub-element, or an unknown wallet code, is a
format error (`30`).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cardservice.cards import card_record
from cardservice.cards.lookup import card_by_pan
from cardservice.db.sql import Row, Tx, as_uuid
from cardservice.decisions import PROVISIONING_TYPE, Verdict, ask_provisioning, note_health
from cardservice.decisions.endpoints import endpoint_of
from cardservice.models.base import utcnow
from cardservice.network import repository
from cardservice.network.codec import Message, sub_elements
from cardservice.network.fields import (
    CVV2,
    DEVICE_NAME,
    RISK_SCORE,
    TOKEN_REFERENCE,
    TOKEN_REQUESTOR,
    WALLET,
)
from cardservice.network.host import (
    ANSWER_WITHIN,
    Answer,
    Host,
    Malformed,
    key_of,
    once,
    require,
)
from cardservice.network.repository import IssuedCard, Key
from cardservice.network.responses import (
    APPROVE_AFTER_CONFIRM,
    APPROVED,
    CVV2_MISMATCH,
    DECLINES,
    DO_NOT_HONOR,
    UNKNOWN_CARD,
)
from cardservice.network.verification import unknown_number, verification_failure
from cardservice.tokens import (
    WALLET_CODES,
    ProvisioningRequest,
    record_decision,
    rules_decision,
    stricter,
)
from cardservice.transactions import card_testing, lock_card_account
from cardservice.transactions.card_testing import BinCount, Merchant

DECISION_CODES = {"approve": APPROVED, "step_up": APPROVE_AFTER_CONFIRM, "decline": DO_NOT_HONOR}


@dataclass(frozen=True, slots=True)
class WalletFields:
    """Field 48's wallet sub-elements of a provisioning request, checked."""

    requestor_id: str
    wallet: str
    device_name: str
    risk_score: int
    token_reference: str


def wallet_fields(message: Message) -> WalletFields:
    """48.70, .71, .72, .73 and .76, each well formed (else `Malformed`: `30`)."""
    elements = sub_elements(message.fields.get(48, ""))
    if elements is None:
        raise Malformed("field 48")
    missing = [tag for tag in (TOKEN_REQUESTOR, WALLET, DEVICE_NAME, RISK_SCORE, TOKEN_REFERENCE)
               if not elements.get(tag, "").strip()]  # fmt: skip
    if missing:
        raise Malformed(f"wallet sub-elements missing: 48.{', 48.'.join(missing)}")
    requestor, wallet, risk = elements[TOKEN_REQUESTOR], elements[WALLET], elements[RISK_SCORE]
    device, reference = elements[DEVICE_NAME].strip(), elements[TOKEN_REFERENCE].strip()
    if not (len(requestor) == 11 and requestor.isdigit()):
        raise Malformed("48.70 is 11 digits")
    if wallet not in WALLET_CODES:
        raise Malformed("48.71 is not a known wallet")
    if risk not in ("1", "2", "3", "4", "5"):
        raise Malformed("48.73 is 1 to 5")
    if len(device) > 32 or len(reference) > 32:
        raise Malformed("48.72 and 48.76 are at most 32 characters")
    return WalletFields(requestor, WALLET_CODES[wallet], device, int(risk), reference)


def _issued(row: Row) -> IssuedCard:
    card, user = as_uuid(row["uuid"]), as_uuid(row["owner_uuid"])
    assert card is not None and user is not None
    expiry = f"{row['expiry_year'] % 100:02d}{row['expiry_month']:02d}"
    return IssuedCard(card, user, expiry, row["currency"])


async def _decision(host: Host, card: Row, request: ProvisioningRequest) -> tuple[str, str]:
    """(decision, decided_by): the rules', made stricter by the user's endpoint if it says so
    (asked with no unit open, within the authorization's deadline)."""
    rules = await rules_decision(
        host.db.reader, request.card_uuid, card["status"], card["card_type"], request.risk_score
    )
    if rules == "decline":
        return rules, "rules"
    endpoint = await endpoint_of(host.db.reader, host.cipher, request.user_uuid)
    if endpoint is None:
        return rules, "rules"
    event: dict[str, Any] = {
        "uuid": str(uuid.uuid4()),
        "type": PROVISIONING_TYPE,
        "created_at": utcnow(),
        "card": card_record(card),
        "wallet": request.wallet,
        "device_name": request.device_name,
        "risk_score": request.risk_score,
    }
    verdict = await ask_provisioning(host.http, endpoint, event, host.allow_private, ANSWER_WITHIN)
    if verdict.source != "stand_in":
        health = Verdict(verdict.decision != "decline", verdict.source)
        await note_health(host.db, request.user_uuid, endpoint, health)
    return stricter(rules, verdict.decision), verdict.source


async def provisioning_request(host: Host, message: Message) -> Answer:
    """0100 / 0101 with processing code 900000 → 0110: the decision, once per key."""
    require(message, 2, 3, 14)
    if message.fields.get(4, "0").strip("0"):
        raise Malformed("a provisioning request's amount is 0")
    wallet = wallet_fields(message)
    key = key_of(message)
    found = await repository.find(host.db.reader, key)
    if found is not None and found.response_code is not None:
        return found.answer  # a repeat: the first answer
    pan = message.fields[2]
    card = await card_by_pan(host.db.reader, host.cipher, pan)
    if card is None:
        return await _unknown_number(host, message)
    locked_until = await repository.bin_locked_until(host.db.reader, card_testing.bin_of(pan))
    cvv2_sent = CVV2 in (sub_elements(message.fields[48]) or {})
    if card_testing.bin_locked(locked_until, utcnow()) and not cvv2_sent:
        return await once(host, key, lambda tx: _remembered(tx, key, CVV2_MISMATCH))
    issued = _issued(card)
    failure = verification_failure(host.cipher, message, issued)
    request = ProvisioningRequest(
        issued.card_uuid, issued.user_uuid, issued.currency, wallet.token_reference,
        wallet.requestor_id, wallet.wallet, wallet.device_name, wallet.risk_score,
    )  # fmt: skip
    decision, decided_by = ("decline", "rules")
    if failure is None:
        decision, decided_by = await _decision(host, card, request)

    async def decide(tx: Tx) -> Answer:
        now = utcnow()
        refused = await _guarded(tx, issued, failure, _acceptor(message), now)
        if refused is None:
            await record_decision(tx, host.cipher, request, decision, decided_by, now)
        return await _remembered(tx, key, refused or DECISION_CODES[decision])

    return await once(host, key, decide)


async def _unknown_number(host: Host, message: Message) -> Answer:
    """A number of no card: nothing recorded; the merchant's and the BIN's counts grow (an
    authorization's rule); `14`, or `N7` in a locked BIN."""
    merchant, pan, now = _acceptor(message), message.fields[2], utcnow()

    async def count(tx: Tx) -> BinCount:
        return await unknown_number(tx, pan, merchant, now)

    counted = await host.db.transact(count)
    if counted.began is not None:
        card_testing.announce(counted.began)  # committed
    return {"39": CVV2_MISMATCH if counted.locked else UNKNOWN_CARD}


async def _remembered(tx: Tx, key: Key, code: str) -> Answer:
    answer = {"39": code}
    await repository.remember(tx, key, None, code, answer, utcnow())
    return answer


def _acceptor(message: Message) -> Merchant:
    """Where the guard counts a provisioning request's failures: the pair (32, 42)."""
    return Merchant(message.fields[32].rjust(11, "0"), message.fields.get(42, "").strip())


async def _guarded(
    tx: Tx, card: IssuedCard, failure: str | None, merchant: Merchant, now: datetime
) -> str | None:
    """The card-testing guard in the decision's unit (`card_testing.checked_card`, after the
    account's lock): the state of a card that is not active (`59` frozen by the guard, `62`,
    `46`; nothing counted); a verification failure counted (its `54` / `N7`); None when the
    card may go on."""
    if await lock_card_account(tx, card.user_uuid, card.card_uuid) is None:
        raise RuntimeError("a card is never deleted")
    slug = await card_testing.checked_card(tx, card.card_uuid, failure, merchant, now)
    return None if slug is None else DECLINES[slug]
