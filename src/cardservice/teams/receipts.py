"""Receipts on transactions and the team's receipt policy
(docs/teams.md#teams-budgets-requests-receipts).

* A transaction's holder links one of their own attachments of type `receipt`, `invoice` or
  `photo` (anybody else's is 404, a `document` 422) and may unlink it.
* The policy (`min_amount` in `currency`, `remind_after_days`, `freeze_after_days`) chases
  the captured card purchases of the team's members in that currency of at least
  `min_amount`, captured since the policy was first set, that have no receipt: from
  `remind_after_days` after capture the event `transaction.receipt_missing` (once per
  purchase: the reminder row's primary key), from `freeze_after_days` the card that made it
  is frozen with `frozen_reason: receipt_missing` (when it is active).
* Linking a receipt unfreezes a card frozen for a missing receipt when no other purchase
  the card was frozen for (the reminder's `frozen_at`) still misses one; a card frozen by
  its holder (or frozen again by them) has no `frozen_reason` and stays frozen.

Every instance may run the job at once: each purchase is taken in its own unit, its card's
account and card locked first (docs/ledger.md, "Lock order"), then the receipt read again,
so one run freezes a card and the others find it frozen; the reminder is an insert that a
second run finds done (`ON CONFLICT DO NOTHING`).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from cardservice.attachments import own_attachment
from cardservice.auth import Principal
from cardservice.cards import update_card
from cardservice.db.database import Database
from cardservice.db.sql import Reader, Row, Tx, as_datetime, as_uuid
from cardservice.errors import NotFound, ValidationFailed
from cardservice.infra.background import Job
from cardservice.ledger.minor_units import to_minor
from cardservice.models.base import utcnow
from cardservice.teams import repository
from cardservice.teams.records import missing_record, policy_record
from cardservice.teams.schemas import ReceiptPolicyRequest
from cardservice.teams.service import managed_team, own_team
from cardservice.transactions import (
    lock_card,
    lock_card_account,
    lock_purchase,
    reports,
    set_receipt,
)

RECEIPT_TYPES = ("receipt", "invoice", "photo")
RECEIPT_MISSING = "receipt_missing"


class PolicyNotFound(NotFound):
    message = "The team has no receipt policy."


# --- the policy


async def put_policy(
    tx: Tx, caller: Principal, body: ReceiptPolicyRequest, now: datetime
) -> dict[str, Any]:
    """The owner sets the team's receipt policy (replacing any; it keeps chasing purchases
    captured since it was first set)."""
    team_uuid = managed_team(caller)
    if body.freeze_after_days < body.remind_after_days:
        raise ValidationFailed(errors={"freeze_after_days": ["must be ≥ remind_after_days"]})
    values = (
        to_minor(body.min_amount),
        body.currency,
        body.remind_after_days,
        body.freeze_after_days,
    )
    await repository.put_policy(tx, team_uuid, values, now)
    return await get_policy(tx, caller)


async def get_policy(reader: Reader | Tx, caller: Principal) -> dict[str, Any]:
    """The caller's team's policy (owner and members); 404 when none is set."""
    row = await repository.policy(reader, own_team(caller))
    if row is None:
        raise PolicyNotFound()
    return policy_record(row)


async def missing_receipts(
    reader: Reader | Tx, caller: Principal, limit: int
) -> list[dict[str, Any]]:
    """The purchases the policy chases that have no receipt yet, oldest first: the team's for
    its owner, their own for a member (none without a policy)."""
    row = await repository.policy(reader, own_team(caller))
    if row is None:
        return []
    member = None if caller.role == "owner" else caller.user_uuid
    return [
        missing_record(r) for r in await repository.missing_receipts(reader, row, limit, member)
    ]


# --- receipts


async def _check_attachment(tx: Tx, user_uuid: uuid.UUID, attachment_uuid: uuid.UUID) -> None:
    attachment = await own_attachment(tx, user_uuid, attachment_uuid)  # anybody else's: 404
    if attachment.type not in RECEIPT_TYPES:
        raise ValidationFailed(
            errors={"attachment_uuid": ["must be an attachment of type receipt, invoice or photo"]}
        )


async def link_receipt(
    tx: Tx, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID, attachment_uuid: uuid.UUID
) -> dict[str, Any]:
    """Link the holder's receipt to their transaction (replacing any); a card frozen only for
    missing receipts is unfrozen when this was the last one due. The transaction's record."""
    now = utcnow()
    purchase, _status = await lock_purchase(tx, user_uuid, transaction_uuid)
    await _check_attachment(tx, user_uuid, attachment_uuid)
    await set_receipt(tx, transaction_uuid, attachment_uuid, now)
    if purchase["card_uuid"] is not None:
        await _unfreeze_if_done(tx, user_uuid, purchase, now)
    return await reports.one_transaction(tx, user_uuid, transaction_uuid)


async def unlink_receipt(
    tx: Tx, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID
) -> dict[str, Any]:
    """Unlink the transaction's receipt (the policy chases it again). The record."""
    await lock_purchase(tx, user_uuid, transaction_uuid)
    await set_receipt(tx, transaction_uuid, None, utcnow())
    return await reports.one_transaction(tx, user_uuid, transaction_uuid)


async def _unfreeze_if_done(
    tx: Tx, user_uuid: uuid.UUID, purchase: Mapping[str, Any], now: datetime
) -> None:
    """Unfreeze the purchase's card (locked already) when the policy froze it and no other
    purchase it was frozen for still misses its receipt."""
    card_uuid = purchase["card_uuid"]
    card = await lock_card(tx, card_uuid)
    if card is None or card["status"] != "frozen" or card["frozen_reason"] != RECEIPT_MISSING:
        return
    if await repository.frozen_for_others(tx, card_uuid, purchase["uuid"]):
        return
    await update_card(tx, card_uuid, {"status": "active", "frozen_reason": None}, now)


# --- the job


@dataclass
class Enforced:
    """What one run did: the purchases reminded, the cards frozen."""

    reminded: list[uuid.UUID] = field(default_factory=list)
    frozen: list[uuid.UUID] = field(default_factory=list)

    def __str__(self) -> str:
        """The report `cardservice team enforce-receipts` prints: a line per reminder and per
        freeze, then the counts."""
        lines = [f"reminded {purchase}" for purchase in self.reminded]
        lines += [f"froze {card}" for card in self.frozen]
        return "\n".join([*lines, f"reminded {len(self.reminded)}, froze {len(self.frozen)}"])


async def _chase(
    tx: Tx, due: Row, freeze_before: datetime, now: datetime
) -> tuple[bool, uuid.UUID | None]:
    """One purchase: its reminder if none was sent, and its card frozen when past the freeze
    and still active; (reminded, the card frozen)."""
    purchase, user = as_uuid(due["uuid"]), as_uuid(due["user_uuid"])
    card_uuid = as_uuid(due["card_uuid"])
    assert purchase is not None and user is not None and card_uuid is not None
    captured = as_datetime(due["captured_at"])
    card = None
    if captured is not None and captured <= freeze_before:
        if await lock_card_account(tx, user, card_uuid) is None:
            return False, None
        card = await lock_card(tx, card_uuid)
    if not await repository.receipt_still_missing(tx, purchase):
        return False, None  # linked (or refunded) since the job read it
    reminded = await repository.remind(tx, purchase, user, now)
    if card is None:
        return reminded, None
    if card["status"] == "frozen" and card["frozen_reason"] == RECEIPT_MISSING:
        await repository.mark_frozen(tx, purchase, now)  # one more reason it stays frozen
    if card["status"] != "active":
        return reminded, None
    await update_card(tx, card_uuid, {"status": "frozen", "frozen_reason": RECEIPT_MISSING}, now)
    await repository.mark_frozen(tx, purchase, now)
    return reminded, card_uuid


async def enforce_receipts(db: Database, now: datetime) -> Enforced:
    """Apply every team's policy at `now`: a unit per purchase due (see the module)."""
    enforced = Enforced()
    for policy in await repository.policies(db.reader):
        remind_before = now - timedelta(days=int(policy["remind_after_days"]))
        freeze_before = now - timedelta(days=int(policy["freeze_after_days"]))
        for due in await repository.due_purchases(db.reader, policy, remind_before, freeze_before):

            async def chase(tx: Tx, due: Row = due, freeze_before: datetime = freeze_before) -> Any:
                return await _chase(tx, due, freeze_before, now)

            reminded, frozen = await db.transact(chase)
            if reminded:
                enforced.reminded.append(as_uuid(due["uuid"]))  # type: ignore[arg-type]
            if frozen is not None:
                enforced.frozen.append(frozen)
    return enforced


async def _enforce_now(db: Database) -> Enforced:
    return await enforce_receipts(db, utcnow())


RECEIPT_POLICY_JOB = Job(
    "receipt_policy", lambda settings: settings.receipt_policy_seconds, _enforce_now
)
"""Apply the receipt policies every `CARDSERVICE_RECEIPT_POLICY_SECONDS`: a job of the
background loop (infra/background.py; `cardservice.runtime` lists it)."""
