"""The rules of network tokens (docs/network.md#wallet-tokens), one function per use case.

* **Provisioning decision** (`decide`, `record_decision`): a card that is not active, or a
  `single_use` card, is declined; a risk score of 4 or 5, or a card never approved yet, is
  a step-up; anything else is approved. The user's decision endpoint may only make it
  stricter (`stricter`). A step-up makes a 6-digit activation code for the holder, listed
  with their 3DS codes (the wallet's name as `merchant_name`, amount 0).
* **Token created** (`create_token`): after an approve or a step-up decision for its
  reference, the token is recorded `active` or `requires_activation`; the DPAN is encrypted
  with the card-number key and fingerprinted as a card number is.
* **Activation** (`activate_token`): the live code made for the token (30 minutes), used
  up; the 3rd wrong code deletes the token (and its code dies with it): the wallet must
  provision again.
* **The holder's view** (`card_tokens`): own cards, and a team owner reads the members'
  (`auth.visibility`, the rule of accounts and events). **The holder's actions**
  (`suspend`, `resume`, `delete`): own cards only.
* **The card's life** (`follow_replacement`, `delete_with_card`): a replaced card's tokens
  move to the new card in the replacement's unit; a closed card's are deleted.

The events `card.token.created` and `card.token.updated` are written by the database
(migration 20261126_33) and completed with the token record, which never holds the DPAN.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from cardservice.db.sql import Reader, Tx, as_uuid
from cardservice.errors import CardNotFound, NotFound, RuleViolation
from cardservice.security import CardCipher
from cardservice.tokens import repository
from cardservice.tokens.records import WALLET_NAMES, token_record
from cardservice.transactions import issue_code, matching_code, use_code

STEP_UP_RISK = 4  # a wallet's risk score from which the holder confirms (1 low … 5 high)
ACTIVATION_CODE_TTL = timedelta(minutes=30)
ACTIVATION_TRIES = 3  # the 3rd wrong activation code deletes the token
STRICTNESS = {"approve": 0, "step_up": 1, "decline": 2}


class TokenNotFound(NotFound):
    message = "Token not found."


class TokenDeleted(RuleViolation):
    code, message = "token_deleted", "The token is deleted; a deleted token cannot be changed."


class TokenNeedsActivation(RuleViolation):
    code = "token_requires_activation"
    message = "The token waits for its activation code; it cannot be suspended or resumed yet."


class NotDecided(Exception):
    """A token notice naming a reference no approving decision was taken for."""


class DeclinedReference(Exception):
    """A token notice naming a reference whose provisioning was declined."""


class DpanRefused(Exception):
    """A DPAN that is not Luhn-valid, is a card's number, or is another token's."""


@dataclass(frozen=True, slots=True)
class ProvisioningRequest:
    """A wallet's request to add a card (docs/network.md#wallet-tokens), its fields as the API names
    them."""

    card_uuid: uuid.UUID
    user_uuid: uuid.UUID
    currency: str
    token_reference: str
    requestor_id: str
    wallet: str
    device_name: str
    risk_score: int


@dataclass(frozen=True, slots=True)
class TokenNotice:
    """The network's notice that it created a token for a decided reference."""

    card_uuid: uuid.UUID
    token_reference: str
    dpan: str
    expiry_yymm: str
    wallet: str
    device_name: str


async def rules_decision(
    reader: Reader | Tx, card_uuid: uuid.UUID, card_status: str, card_type: str, risk: int
) -> str:
    """`decline` (a card not active, a single_use card), `step_up` (risk 4-5, or a card
    never approved yet) or `approve`."""
    if card_status != "active" or card_type == "single_use":
        return "decline"
    if risk >= STEP_UP_RISK or not await repository.ever_approved(reader, card_uuid):
        return "step_up"
    return "approve"


def stricter(rules: str, endpoint: str) -> str:
    """The endpoint's answer applies only when it is stricter than the rules'."""
    return endpoint if STRICTNESS[endpoint] > STRICTNESS[rules] else rules


async def record_decision(
    tx: Tx,
    cipher: CardCipher,
    request: ProvisioningRequest,
    decision: str,
    decided_by: str,
    now: datetime,
) -> dict[str, Any]:
    """Keep the decision (a step-up with its activation code for the holder); its row."""
    code = None
    if decision == "step_up":
        made = await issue_code(
            tx, cipher, request.user_uuid, request.card_uuid, WALLET_NAMES[request.wallet],
            0, request.currency, ACTIVATION_CODE_TTL, now,
        )  # fmt: skip
        code = uuid.UUID(str(made["uuid"]))
    row = {
        "uuid": uuid.uuid4(),
        "user_uuid": request.user_uuid,
        "card_uuid": request.card_uuid,
        "token_reference": request.token_reference,
        "requestor_id": request.requestor_id,
        "wallet": request.wallet,
        "device_name": request.device_name,
        "risk_score": request.risk_score,
        "decision": decision,
        "decided_by": decided_by,
        "activation_code_uuid": code,
        "created_at": now,
    }
    await repository.insert_provisioning(tx, row)
    return row


async def create_token(
    tx: Tx, cipher: CardCipher, notice: TokenNotice, now: datetime
) -> dict[str, Any]:
    """Record the token the network created after a decision for its reference: `active`
    after an approve, `requires_activation` after a step-up. The same notice again is
    answered with the token it made. `NotDecided` (no decision, or one for another card),
    `DeclinedReference`, `DpanRefused` (a card's number, or another token's DPAN)."""
    decided = await repository.latest_decision(tx, notice.token_reference)
    if decided is None or as_uuid(decided["card_uuid"]) != notice.card_uuid:
        raise NotDecided(notice.token_reference)
    if decided["decision"] == "decline":
        raise DeclinedReference(notice.token_reference)
    fingerprint = cipher.fingerprint(notice.dpan)
    existing = await repository.token_by_reference(tx, notice.token_reference)
    if existing is not None:
        if existing["dpan_fingerprint"] != fingerprint:
            raise DpanRefused("the reference has a token with another DPAN")
        return {"uuid": as_uuid(existing["uuid"]), "status": existing["status"]}
    if await repository.is_card_number(tx, fingerprint):
        raise DpanRefused("a card's number")
    if await repository.reference_of_dpan(tx, fingerprint) is not None:
        raise DpanRefused("another token's DPAN")
    row = {
        "uuid": uuid.uuid4(),
        "user_uuid": as_uuid(decided["user_uuid"]),
        "card_uuid": notice.card_uuid,
        "provisioning_uuid": as_uuid(decided["uuid"]),
        "token_reference": notice.token_reference,
        "dpan_ciphertext": cipher.encrypt(notice.dpan),
        "dpan_fingerprint": fingerprint,
        "last4": notice.dpan[-4:],
        "expiry_month": int(notice.expiry_yymm[2:]),
        "expiry_year": 2000 + int(notice.expiry_yymm[:2]),
        "wallet": notice.wallet,
        "device_name": notice.device_name,
        "status": "active" if decided["decision"] == "approve" else "requires_activation",
        "activation_failures": 0,
        "created_at": now,
        "updated_at": now,
    }
    await repository.insert_token(tx, row)
    return {"uuid": row["uuid"], "status": row["status"]}


async def activate_token(
    tx: Tx, cipher: CardCipher, reference: str, presented: str, now: datetime
) -> bool:
    """The token becomes `active` when `presented` is the live activation code made for it
    (used up); True when the token is active now. A wrong code is counted under the token's
    lock; the 3rd deletes the token (`card.token.updated`) and uses its code up, so the
    right one no longer activates it. `NotDecided` for an unknown reference."""
    token = await repository.token_by_reference(tx, reference)
    if token is None:
        raise NotDecided(reference)
    if token["status"] == "active":
        return True
    if token["status"] != "requires_activation":
        return False
    card_uuid, token_uuid = as_uuid(token["card_uuid"]), as_uuid(token["uuid"])
    provisioning = as_uuid(token["provisioning_uuid"])
    assert card_uuid is not None and token_uuid is not None and provisioning is not None
    made_for_it = await repository.activation_code_of(tx, provisioning)
    matched = made_for_it is not None and (
        await matching_code(tx, cipher, card_uuid, presented, now) == made_for_it
    )
    if matched:
        assert made_for_it is not None
        await use_code(tx, made_for_it, None, now)
        await repository.set_status(tx, token_uuid, "active", now)
        return True
    failures = token["activation_failures"] + 1
    await repository.set_activation_failures(tx, token_uuid, failures)
    if failures >= ACTIVATION_TRIES:
        if made_for_it is not None:
            await use_code(tx, made_for_it, None, now)
        await repository.set_status(tx, token_uuid, "deleted", now)
    return False


async def card_tokens(
    reader: Reader, user_uuid: uuid.UUID, owned_team: uuid.UUID | None, card_uuid: uuid.UUID
) -> list[dict[str, Any]]:
    """The tokens of one of the user's cards, or of a team member's when `owned_team` is the
    team the user owns (`Principal.owned_team`), oldest first; any other card: 404."""
    if await repository.readable_card(reader, card_uuid, user_uuid, owned_team) is None:
        raise CardNotFound()
    return [token_record(row) for row in await repository.tokens_of_card(reader, card_uuid)]


# An action → (the statuses it leaves as they are, the status it sets).
_ACTIONS = {
    "suspend": ("suspended", "suspended"),
    "resume": ("active", "active"),
    "delete": ("deleted", "deleted"),
}


async def change_token(
    tx: Tx,
    user_uuid: uuid.UUID,
    card_uuid: uuid.UUID,
    token_uuid: uuid.UUID,
    action: str,
    now: datetime,
) -> dict[str, Any]:
    """The holder suspends, resumes or deletes one of a card's tokens; its record. Another's
    card or token → 404 (a team member's card to the team's owner too); a deleted token is
    final (`token_deleted`); a token waiting for its activation code can only be deleted
    (`token_requires_activation`). Repeating an action changes nothing."""
    if await repository.readable_card(tx, card_uuid, user_uuid, None) is None:  # own only
        raise CardNotFound()
    token = await repository.token_of_card(tx, token_uuid, card_uuid)
    if token is None:
        raise TokenNotFound()
    same, target = _ACTIONS[action]
    status = token["status"]
    if status == same:
        return token_record(token)
    if status == "deleted":
        raise TokenDeleted()
    if status == "requires_activation" and action != "delete":
        raise TokenNeedsActivation()
    await repository.set_status(tx, token_uuid, target, now)
    changed = await repository.token_of_card(tx, token_uuid, card_uuid)
    assert changed is not None
    return token_record(changed)


async def follow_replacement(tx: Tx, old: uuid.UUID, new: uuid.UUID, now: datetime) -> None:
    """A replaced card's tokens pay with the card that replaced it (same DPAN); in the
    replacement's unit, under its account's and card's locks."""
    await repository.move_tokens(tx, old, new, now)


async def delete_with_card(tx: Tx, card_uuid: uuid.UUID, now: datetime) -> None:
    """A closed card's tokens are deleted (in the unit that closes it)."""
    await repository.delete_tokens_of_card(tx, card_uuid, now)
